// A fake of the game API (Hypixel), answering like the real one:
//   GET /v2/skyblock/profiles?uuid=<uuid>  header API-Key
//   200 { success: true, profiles: [...] } or { success: true, profiles: null } (no profiles);
//   403 { success: false, cause: "Invalid API key" }; 422 { success: false, cause: "Malformed UUID" };
//   429 { success: false, cause: "Key throttle", throttle: true } once the window's budget is spent.
// Every answer carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds).
// `state.failure` makes it misbehave the ways the real one does behind Cloudflare.
import { fakeUpstream, json } from "../upstream.ts";

export type GameApiFailure = "none" | "cloudflare502" | "cloudflare504" | "cloudflare521" | "slow" | "hang" | "notJson" | "malformedUuid";

const cloudflarePage = (status: number, title: string) =>
  new Response(
    `<!DOCTYPE html>\n<html><head><title>api.hypixel.net | ${status}: ${title}</title></head><body><div id="cf-error-details"><h1>${title}</h1><span>Error code ${status}</span><p>Cloudflare Ray ID: 8a1b2c3d4e5f6789</p></div></body></html>`,
    { status, headers: { "content-type": "text/html; charset=UTF-8", server: "cloudflare", "cf-ray": "8a1b2c3d4e5f6789-FRA" } },
  );

export function fakeGameApi(opts: { key: string; limit?: number; resetSeconds?: number }) {
  const players = new Map<string, unknown[] | null>();
  const state = { failure: "none" as GameApiFailure, remaining: opts.limit ?? 300, resetSeconds: opts.resetSeconds ?? 240, slowMs: 300 };
  const rateHeaders = () => ({
    "RateLimit-Limit": String(opts.limit ?? 300),
    "RateLimit-Remaining": String(Math.max(0, state.remaining)),
    "RateLimit-Reset": String(state.resetSeconds),
  });
  const server = fakeUpstream({
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
        case "notJson":
          return new Response("<html>maintenance</html>", { status: 200, headers: { "content-type": "text/html" } });
      }
      if (req.headers.get("api-key") !== opts.key) return json({ success: false, cause: "Invalid API key" }, 403);
      if (state.remaining <= 0) return json({ success: false, cause: "Key throttle", throttle: true }, 429, rateHeaders());
      state.remaining--;
      const uuid = (call.query.get("uuid") ?? "").replaceAll("-", "");
      if (!/^[0-9a-fA-F]{32}$/.test(uuid) || state.failure === "malformedUuid") return json({ success: false, cause: "Malformed UUID" }, 422, rateHeaders());
      return json({ success: true, profiles: players.get(uuid.toLowerCase()) ?? null }, 200, rateHeaders());
    },
  });
  return {
    ...server,
    state,
    players,
    /** Calls that reached the profiles endpoint. */
    lookups: () => server.calls.filter((c) => c.path === "/v2/skyblock/profiles").length,
  };
}

/** A SkyBlock profile the way the game API answers it: far more than the allowlist keeps. */
export function hypixelProfile(uuid: string, over: { profileId?: string; cuteName?: string; selected?: boolean; gameMode?: string; otherMember?: string } = {}) {
  const other = over.otherMember ?? "99999999999999999999999999999999";
  return {
    profile_id: over.profileId ?? "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b",
    cute_name: over.cuteName ?? "Apple",
    selected: over.selected ?? true,
    ...(over.gameMode ? { game_mode: over.gameMode } : {}),
    community_upgrades: { currently_upgrading: null, upgrade_states: [{ upgrade: "island_size", tier: 1, started_ms: 1600000000000, started_by: other }] },
    banking: { balance: 1234567.89, transactions: [{ amount: 5000, timestamp: 1700000000000, action: "DEPOSIT", initiator_name: "§bSomeoneElse" }] },
    members: {
      [uuid]: {
        player_id: uuid,
        profile: { first_join: 1600000000123, personal_bank_upgrade: 2, cookie_buff_active: true },
        leveler: { experience: 41250, highest_pet_score: 90 },
        currencies: { coin_purse: 98765.4321, motes_purse: 12 },
        fairy_soul: { total_collected: 221, fairy_exchanges: 44 },
        inventory: { inv_contents: { type: 0, data: "H4sIAAAAAAAA/+3ZS2..." } },
        player_stats: { kills: { zombie: 12 } },
      },
      [other]: {
        player_id: other,
        profile: { first_join: 1500000000000 },
        currencies: { coin_purse: 1 },
        inventory: { inv_contents: { type: 0, data: "H4sIAAAAAAAA/other" } },
      },
    },
  };
}
