// Settings: Privacy: the pseudonyms of player names (src/privacy/).
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { setting } from "./setting.ts";

export const privacySettings = {
  pseudonymKey: setting({
    env: "PSEUDONYM_KEY",
    schema: T.Union([T.String({ minLength: 32, maxLength: 256 }), T.Literal("")]),
    default: "",
    doc: "Key of the player-name pseudonyms in bug reports. Empty: a random key generated once and kept in the database.",
    secret: true,
  }),
} as const;
