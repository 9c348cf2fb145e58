// The world the page tests run in: fake game API, name service, session server and texture
// server on 127.0.0.1, an app over a fresh database with the fixture catalogue, and seeded players.
import { testApp, loopbackFetch } from "../support/app.ts";
import { fixtureCatalogue } from "../support/fixtures.ts";
import { fakeGameApi, hypixelProfile } from "../support/fakes/game-api.ts";
import { fakeNames } from "../support/fakes/names.ts";
import { fakeSessionServer, fakeImageServer, skinPng, hashOf } from "../support/fakes/skins.ts";
import { SEED_NOW } from "./seed.ts";

export const GAME_KEY = "0b5e8c1a-7d3f-4e2a-9c6b-1f0e2d3c4b5a";
export const alice = { uuid: "0f1e2d3c4b5a69788796a5b4c3d2e1f0", name: "Alice_01" };
export const empty = { uuid: "1a2b3c4d5e6f708192a3b4c5d6e7f801", name: "No_Profiles" };
export const stale = { uuid: "2b3c4d5e6f708192a3b4c5d6e7f80112", name: "Stale_Sam" };

type AppOptions = NonNullable<Parameters<typeof testApp>[0]>;

/** `database`: another page world's (its `t.database`), for a second app with other settings over it. */
export async function pageEnv(opts: { settings?: AppOptions["settings"]; database?: AppOptions["database"] } = {}) {
  const game = fakeGameApi({ key: GAME_KEY });
  const names = fakeNames([alice, empty, stale]);
  const images = fakeImageServer();
  const skin = skinPng();
  const hash = hashOf(skin);
  images.files.set(`/texture/${hash}`, skin);
  const session = fakeSessionServer([
    { uuid: alice.uuid, name: alice.name, skinUrl: `http://textures.minecraft.net/texture/${hash}` },
    { uuid: empty.uuid, name: empty.name },
    { uuid: stale.uuid, name: stale.name, skinUrl: `http://textures.minecraft.net/texture/${hash}` },
  ]);
  game.players.set(alice.uuid, [
    hypixelProfile(alice.uuid, { selected: false, cuteName: "Apple" }),
    hypixelProfile(alice.uuid, {
      profileId: "aaaabbbbccccddddeeeeffff00001111",
      cuteName: "Banana",
      gameMode: "island",
      selected: true,
    }),
  ]);
  game.players.set(empty.uuid, null);
  game.players.set(stale.uuid, [hypixelProfile(stale.uuid, { cuteName: "Kiwi" })]);
  const t = await testApp({
    settings: {
      devSignin: true,
      catalogueFile: fixtureCatalogue,
      gameApiUrl: game.url,
      gameApiKey: GAME_KEY,
      namesUrl: names.url,
      identityUrl: session.url,
      texturesUrl: images.url,
      lookupRateLimit: 0,
      assetRateLimit: 0,
      upstreamTimeoutMs: 1000,
      ...opts.settings,
    },
    fetch: loopbackFetch,
    now: SEED_NOW,
    database: opts.database,
  });
  return {
    t,
    game,
    names,
    async close() {
      await t.close();
      for (const s of [game, names, images, session]) await s.stop();
    },
  };
}
