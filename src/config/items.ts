// Settings: The game's item list and item names (src/items/).
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { setting, Millis } from "./setting.ts";

export const itemsSettings = {
  itemListMaxAgeHours: setting({
    env: "ITEM_LIST_MAX_AGE_HOURS",
    schema: T.Integer({ minimum: 1, maximum: 24 * 90 }),
    default: "24",
    doc: "Age at which the stored item list of the game (GET {GAME_API_URL}/v2/resources/skyblock/items, no key) is fetched again; until a fetch succeeds the last good copy is used.",
  }),
  itemNamesReloadMs: setting({
    env: "ITEM_NAMES_RELOAD_MS",
    schema: Millis(0, 86_400_000),
    default: "600000",
    doc: "How often an instance reloads the item names from the stored list into memory (another instance's job may have fetched a new one).",
  }),
} as const;
