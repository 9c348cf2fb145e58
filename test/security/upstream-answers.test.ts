// Boundary: what an upstream answers. A compromised or broken upstream can send a body of any size;
// the game API's answer is read under GAME_API_MAX_BYTES (issue 22, finding 9), as images are under
// IMAGE_MAX_BYTES: reading stops at the cap, the lookup fails like any upstream failure.
import { afterEach, expect, test } from "bun:test";
import { testApp, loopbackFetch } from "../support/app.ts";
import { fakeGameApi } from "../support/fakes/game-api.ts";

const KEY = "0b5e8c1a-7d3f-4e2a-9c6b-1f0e2d3c4b5a";
const alice = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
const MIB = 1024 * 1024;

const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

test("a game API answer that never ends is cut at GAME_API_MAX_BYTES: 503 upstream_unavailable, reading stopped", async () => {
  const game = fakeGameApi({ key: KEY });
  opened.push({ close: game.stop });
  const t = await testApp({
    settings: {
      gameApiUrl: game.url,
      gameApiKey: KEY,
      gameApiMaxBytes: MIB,
      lookupRateLimit: 0,
      upstreamTimeoutMs: 5000,
    },
    fetch: loopbackFetch,
  });
  opened.push(t);
  game.state.failure = "endless";
  const res = await t.request(`/v1/gamemode/profiles/${alice}`);
  expect(res.status).toBe(503);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("upstream_unavailable");
  // The fake stops being read soon after the cap: what it produced is the cap plus what sat in
  // socket buffers (about 6 MiB here), not the endless rest.
  expect(game.state.sentBytes).toBeLessThan(32 * MIB);
  expect(t.log.lines.some((l) => JSON.stringify(l).includes(`${MIB}-byte cap`))).toBe(true);
});
