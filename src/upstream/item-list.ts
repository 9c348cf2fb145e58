// The game API's public item list (Hypixel): GET {GAME_API_URL}/v2/resources/skyblock/items, no key.
//   200 { success: true, lastUpdated: <ms>, items: [{ id, name, tier?, material, ... }] }
// (recorded: test/support/recorded/hypixel/skyblock-items.json). The real answer is a few MB (about
// 6 MB pretty-printed for ~4 700 items in 2025): read under GAME_API_MAX_BYTES like the profiles.
// Only each item's id and name (and tier) are kept, each checked: an id of the key segment's shape
// (contract 2.2, the shape the image proxy takes), a name of printable text without the game's
// colour codes. Anything else in the list is skipped, never trusted.
import { bodyBytes, callFor } from "./call.ts";
import { UpstreamError } from "./upstream-error.ts";

export type ItemListDeps = { fetch: typeof fetch; gameApiUrl: string; timeoutMs: number; maxBytes: number };

export type ListedItem = { id: string; name: string; tier?: string };

/** Most items kept from one answer (the real list holds about 4 700). */
export const MAX_ITEMS = 50_000;

const ITEM_ID = /^[A-Za-z0-9_][A-Za-z0-9_;:+#-]{0,63}$/;
const TIER = /^[A-Z_]{1,24}$/;
/** A name: 1 to 100 characters, no control characters, no § colour codes left. */
const cleanName = (name: unknown): string | undefined => {
  if (typeof name !== "string") return undefined;
  let text = "";
  // Colour codes (§ and the next character) and control characters removed.
  for (const c of name.replace(/§./g, "")) if (c.charCodeAt(0) >= 0x20 && c !== "\u007f") text += c;
  text = text.trim();
  return text.length > 0 && text.length <= 100 ? text : undefined;
};

/** The item list; throws UpstreamError when the upstream fails or answers something else. */
export async function skyblockItems(deps: ItemListDeps): Promise<{ lastUpdated: number | null; items: ListedItem[] }> {
  const upstream = "game API item list";
  const res = await callFor({
    fetch: deps.fetch,
    upstream,
    url: `${deps.gameApiUrl}/v2/resources/skyblock/items`,
    timeoutMs: deps.timeoutMs,
    init: { headers: { accept: "application/json" } },
  });
  if (!res) throw new UpstreamError(upstream, "status", `${upstream} answered no list`);
  const bytes = await bodyBytes(res, upstream, deps.maxBytes, deps.timeoutMs);
  let body: { success?: unknown; lastUpdated?: unknown; items?: unknown };
  try {
    body = JSON.parse(new TextDecoder().decode(bytes)) as typeof body;
  } catch {
    throw new UpstreamError(upstream, "malformed", `${upstream} answered something other than JSON`);
  }
  if (body?.success !== true || !Array.isArray(body.items))
    throw new UpstreamError(upstream, "malformed", `${upstream} answered 200 without an item list`);
  const items: ListedItem[] = [];
  for (const raw of body.items as unknown[]) {
    if (items.length >= MAX_ITEMS) break;
    const item = raw as { id?: unknown; name?: unknown; tier?: unknown } | null;
    if (typeof item?.id !== "string" || !ITEM_ID.test(item.id)) continue;
    const name = cleanName(item.name);
    if (!name) continue;
    const tier = typeof item.tier === "string" && TIER.test(item.tier) ? item.tier : undefined;
    items.push(tier ? { id: item.id, name, tier } : { id: item.id, name });
  }
  const lastUpdated =
    typeof body.lastUpdated === "number" && Number.isSafeInteger(body.lastUpdated) ? body.lastUpdated : null;
  return { lastUpdated, items };
}
