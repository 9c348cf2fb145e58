// A fake of the game API (Hypixel), answering like the real one:
//   GET /v2/skyblock/profiles?uuid=<uuid>  header API-Key
//   200 { success: true, profiles: [...] } or { success: true, profiles: null } (no profiles);
//   403 { success: false, cause: "Invalid API key" }; 422 { success: false, cause: "Malformed UUID" };
//   429 { success: false, cause: "Key throttle", throttle: true } once the window's budget is spent.
//   GET /v2/resources/skyblock/items (no key): the recorded item list (hypixel/skyblock-items.json).
// Every answer carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds).
// `state.failure` makes it misbehave the ways the real one does behind Cloudflare.
import { fakeUpstream, json } from "../upstream.ts";
import { recordedItemList, recordedProfiles } from "../recorded.ts";

export type GameApiFailure =
  | "none"
  | "cloudflare502"
  | "cloudflare504"
  | "cloudflare521"
  | "slow"
  | "hang"
  | "notJson"
  | "malformedUuid"
  | "endless";

const cloudflarePage = (status: number, title: string) =>
  new Response(
    `<!DOCTYPE html>\n<html><head><title>api.hypixel.net | ${status}: ${title}</title></head><body><div id="cf-error-details"><h1>${title}</h1><span>Error code ${status}</span><p>Cloudflare Ray ID: 8a1b2c3d4e5f6789</p></div></body></html>`,
    {
      status,
      headers: { "content-type": "text/html; charset=UTF-8", server: "cloudflare", "cf-ray": "8a1b2c3d4e5f6789-FRA" },
    },
  );

export function fakeGameApi(opts: { key: string; limit?: number; resetSeconds?: number }) {
  const players = new Map<string, unknown[] | null>();
  const state = {
    failure: "none" as GameApiFailure,
    remaining: opts.limit ?? 300,
    resetSeconds: opts.resetSeconds ?? 240,
    slowMs: 300,
    sentBytes: 0,
    items: null as unknown,
  };
  const rateHeaders = () => ({
    "RateLimit-Limit": String(opts.limit ?? 300),
    "RateLimit-Remaining": String(Math.max(0, state.remaining)),
    "RateLimit-Reset": String(state.resetSeconds),
  });
  const server = fakeUpstream({
    // The public item list: no key, no rate limit headers on the real one (a resource endpoint);
    // `state.items` replaces the recorded body (null: the recorded one).
    "GET /v2/resources/skyblock/items": async () => {
      switch (state.failure) {
        case "cloudflare502":
          return cloudflarePage(502, "Bad gateway");
        case "cloudflare504":
          return cloudflarePage(504, "Gateway time-out");
        case "notJson":
          return new Response("<html>maintenance</html>", { status: 200, headers: { "content-type": "text/html" } });
        case "hang":
          await new Promise(() => {});
          break;
      }
      return json(state.items ?? recordedItemList(), 200);
    },
    "GET /v2/skyblock/profiles": async (req, call) => {
      switch (state.failure) {
        case "cloudflare502":
          return cloudflarePage(502, "Bad gateway");
        case "cloudflare504":
          return cloudflarePage(504, "Gateway time-out");
        case "cloudflare521":
          return cloudflarePage(521, "Web server is down");
        case "hang":
          await new Promise(() => {});
          break;
        case "slow":
          await Bun.sleep(state.slowMs);
          break;
        case "endless": {
          // A 200 whose JSON never ends (no Content-Length): only a reader with a cap stops it.
          const chunk = new TextEncoder().encode(`{"uuid":"${"0".repeat(32)}","stats":{}},`.repeat(1000));
          let first = true;
          const body = new ReadableStream<Uint8Array>({
            pull(c) {
              const bytes = first ? new TextEncoder().encode('{"success":true,"profiles":[') : chunk;
              first = false;
              state.sentBytes += bytes.byteLength;
              c.enqueue(bytes);
            },
          });
          return new Response(body, { status: 200, headers: { "content-type": "application/json", ...rateHeaders() } });
        }
        case "notJson":
          return new Response("<html>maintenance</html>", { status: 200, headers: { "content-type": "text/html" } });
      }
      if (req.headers.get("api-key") !== opts.key) return json({ success: false, cause: "Invalid API key" }, 403);
      if (state.remaining <= 0)
        return json({ success: false, cause: "Key throttle", throttle: true }, 429, rateHeaders());
      state.remaining--;
      const uuid = (call.query.get("uuid") ?? "").replaceAll("-", "");
      if (!/^[0-9a-fA-F]{32}$/.test(uuid) || state.failure === "malformedUuid")
        return json({ success: false, cause: "Malformed UUID" }, 422, rateHeaders());
      return json({ success: true, profiles: players.get(uuid.toLowerCase()) ?? null }, 200, rateHeaders());
    },
  });
  return {
    ...server,
    state,
    players,
    /** Calls that reached the profiles endpoint. */
    lookups: () => server.calls.filter((c) => c.path === "/v2/skyblock/profiles").length,
    /** Calls that reached the item list. */
    itemListCalls: () => server.calls.filter((c) => c.path === "/v2/resources/skyblock/items").length,
  };
}

/**
 * A SkyBlock profile the way the game API answers it, from recorded parts
 * (test/support/recorded/hypixel/profiles-28dfd0f3a48443e49278df91f909b596.json): the "Apple"
 * profile with its bank, and the looked-up player's member entry from it, plus the other members
 * of the recorded co-op profile "Pear" (seven still on it, two who left with a deletion notice).
 * Allowlisted: memberCount 8, bankBalance 1002698535, firstJoin 1574817763176, skyblockXp 48330,
 * purse 306332274, fairySouls 265.
 */
export function hypixelProfile(
  uuid: string,
  over: { profileId?: string; cuteName?: string; selected?: boolean; gameMode?: string } = {},
) {
  const recorded = recordedProfiles("28dfd0f3a48443e49278df91f909b596").profiles;
  const apple = recorded.find((p) => p.cute_name === "Apple")! as {
    members: Record<string, Record<string, unknown>>;
  } & Record<string, unknown>;
  const pear = recorded.find((p) => p.cute_name === "Pear")! as { members: Record<string, unknown> };
  const own = apple.members[RECORDED_UUID]!;
  const others = Object.entries(pear.members).filter(([id]) => id !== RECORDED_UUID);
  const dashed = `${uuid.slice(0, 8)}-${uuid.slice(8, 12)}-${uuid.slice(12, 16)}-${uuid.slice(16, 20)}-${uuid.slice(20)}`;
  return {
    ...apple,
    profile_id: over.profileId ?? apple.profile_id,
    cute_name: over.cuteName ?? apple.cute_name,
    selected: over.selected ?? apple.selected,
    ...(over.gameMode ? { game_mode: over.gameMode } : {}),
    members: { [uuid]: { ...own, player_id: dashed }, ...Object.fromEntries(others) },
  };
}

const RECORDED_UUID = "28dfd0f3a48443e49278df91f909b596";
