// Each upstream client against its fake, the fakes answering with recorded bodies
// (test/support/recorded/): what the client makes of a real answer, of "no such thing", of
// throttling (429, and Mojang's gateway's HTML 403), and of a body it cannot use.
import { afterAll, describe, expect, test } from "bun:test";
import { skyblockProfiles, GameApiError } from "../../src/upstream/game-api.ts";
import { hasJoined, profileSkinHash } from "../../src/upstream/identity.ts";
import { uuidForName } from "../../src/upstream/names.ts";
import { isTextureHash, textureBytes } from "../../src/upstream/textures.ts";
import { itemImageBytes } from "../../src/upstream/item-images.ts";
import { UpstreamError } from "../../src/upstream/upstream-error.ts";
import { envFor, loadConfig } from "../../src/config.ts";
import { fakeGameApi } from "../support/fakes/game-api.ts";
import { fakeIdentity } from "../support/fakes/identity.ts";
import { fakeNames } from "../support/fakes/names.ts";
import {
  fakeImageServer,
  fakeSessionServer,
  itemPng,
  RECORDED_SESSION_PLAYER,
  skinPng,
} from "../support/fakes/skins.ts";
import { HASH_63, recordedName, recordedProfiles } from "../support/recorded.ts";

const KEY = "0b5e8c1a-7d3f-4e2a-9c6b-1f0e2d3c4b5a";
const PLAYER = "28dfd0f3a48443e49278df91f909b596";
const timeoutMs = 500;

const stops: (() => unknown)[] = [];
afterAll(() => {
  for (const s of stops) s();
});
function started<T extends { stop(): unknown }>(fake: T): T {
  stops.push(() => fake.stop());
  return fake;
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a failure");
}

describe("game API", () => {
  const game = started(fakeGameApi({ key: KEY, limit: 300, resetSeconds: 240 }));
  game.players.set(PLAYER, recordedProfiles(PLAYER).profiles);
  const deps = { fetch, gameApiUrl: game.url, gameApiKey: KEY, timeoutMs, maxBytes: 16 * 1024 * 1024 };

  test("answers the recorded profiles as recorded, with the budget its headers gave", async () => {
    const answer = await skyblockProfiles(deps, PLAYER);
    expect(answer.profiles).toEqual(recordedProfiles(PLAYER).profiles);
    expect(answer.budget).toEqual({ remaining: 299, resetSeconds: 240 });
    expect(game.calls.at(-1)!.headers.get("api-key")).toBe(KEY);
  });

  test("a body over GAME_API_MAX_BYTES is refused as the upstream failing, never read whole", async () => {
    const e = await failure(skyblockProfiles({ ...deps, maxBytes: 4096 }, PLAYER));
    expect(e).toBeInstanceOf(GameApiError);
    expect((e as GameApiError).fault).toBe("unavailable");
    expect(e.message).toContain("4096-byte cap");
  });

  test("a refused key, a refused uuid and a spent budget are told apart; the key is in no message", async () => {
    const wrong = await failure(skyblockProfiles({ ...deps, gameApiKey: "not-the-key" }, PLAYER));
    expect((wrong as GameApiError).fault).toBe("key_rejected");
    expect(wrong.message).not.toContain(KEY);
    expect(((await failure(skyblockProfiles(deps, "not-a-uuid"))) as GameApiError).fault).toBe("malformed_uuid");
    game.state.remaining = 0;
    const throttled = (await failure(skyblockProfiles(deps, PLAYER))) as GameApiError;
    game.state.remaining = 300;
    expect([throttled.fault, throttled.budget.resetSeconds]).toEqual(["throttled", 240]);
  });
});

describe("identity provider: hasJoined", () => {
  const player = { uuid: "f1bfcbddc68b49bfaac9fb9d8ce5293d", name: "123lmfao4", accessToken: "token-1" };
  const identity = started(
    fakeIdentity([player, { uuid: "069a79f444e94726a5befca90e38aaf5", name: "Notch", accessToken: "token-2" }]),
  );
  const deps = { fetch, identityUrl: identity.url, timeoutMs };

  test("a join answers the player; no join (204) answers not joined", async () => {
    await identity.join(player, "serverid-1");
    expect(await hasJoined(deps, "123LMFAO4", "serverid-1")).toEqual({
      joined: true,
      uuid: player.uuid,
      name: player.name,
    });
    expect(await hasJoined(deps, "123lmfao4", "serverid-2")).toEqual({ joined: false });
  });

  test("a 429 and the gateway's HTML 403 are throttling; a 500 is a status; a broken body is malformed", async () => {
    for (const [mode, reason] of [
      ["rateLimited", "throttled"],
      ["gateway403", "throttled"],
      ["error500", "status"],
      ["malformed", "malformed"],
    ] as const) {
      identity.state.failure = mode;
      const e = await failure(hasJoined(deps, "123lmfao4", "serverid-1"));
      expect([mode, e instanceof UpstreamError && e.reason]).toEqual([mode, reason]);
    }
    identity.state.failure = "none";
  });
});

describe("identity provider: profile textures", () => {
  const session = started(
    fakeSessionServer([
      { uuid: "a".repeat(32), name: "Short_Hash", skinUrl: `http://textures.minecraft.net/texture/${HASH_63}` },
      {
        uuid: "b".repeat(32),
        name: "Zero_Lead",
        skinUrl: `http://textures.minecraft.net/texture/0${HASH_63.slice(1)}`,
      },
      { uuid: "c".repeat(32), name: "No_Skin" },
    ]),
  );
  const deps = { fetch, identityUrl: session.url, timeoutMs };

  test("the recorded answer gives its skin's hash; a 63-character hash is a hash", async () => {
    expect(await profileSkinHash(deps, RECORDED_SESSION_PLAYER.uuid)).toEqual({
      skinHash: RECORDED_SESSION_PLAYER.hash,
    });
    expect(await profileSkinHash(deps, "a".repeat(32))).toEqual({ skinHash: HASH_63 });
  });

  test("no skin, or a hash the texture server never hands out: no hash; an unknown player: null", async () => {
    expect(await profileSkinHash(deps, "c".repeat(32))).toEqual({});
    expect(await profileSkinHash(deps, "b".repeat(32))).toEqual({});
    expect(await profileSkinHash(deps, "d".repeat(32))).toBeNull();
  });

  test("the gateway's HTML 403 and a 429 are throttling", async () => {
    for (const mode of ["gateway403", "rateLimited"] as const) {
      session.state.failure = mode;
      expect(((await failure(profileSkinHash(deps, RECORDED_SESSION_PLAYER.uuid))) as UpstreamError).reason).toBe(
        "throttled",
      );
    }
    session.state.failure = "none";
  });
});

describe("name service", () => {
  const notch = recordedName();
  const names = started(fakeNames([{ uuid: notch.id, name: notch.name }]));
  const deps = { fetch, namesUrl: names.url, timeoutMs };

  test("answers the recorded { id, name }, the name as spelled upstream", async () => {
    expect(await uuidForName(deps, "notch")).toEqual({ uuid: notch.id, name: "Notch" });
  });

  test("an unknown name (404, or 204 from older deployments) is null", async () => {
    for (const unknownAs of [404, 204] as const) {
      names.state.unknownAs = unknownAs;
      expect(await uuidForName(deps, "Nobody_Here")).toBeNull();
    }
  });

  test("the gateway's HTML 403 and a 429 are throttling; a 500 is a status", async () => {
    for (const [mode, reason] of [
      ["gateway403", "throttled"],
      ["throttled", "throttled"],
      ["error500", "status"],
    ] as const) {
      names.state.failure = mode;
      expect([mode, ((await failure(uuidForName(deps, "Notch"))) as UpstreamError).reason]).toEqual([mode, reason]);
    }
    names.state.failure = "none";
  });
});

describe("texture server and item images", () => {
  const images = started(fakeImageServer());
  const skin = skinPng();
  images.files.set(`/texture/${HASH_63}`, skin);
  images.files.set("/ENCHANTED_DIAMOND.png", itemPng());
  const deps = { fetch, texturesUrl: images.url, itemImagesUrl: images.url, timeoutMs, maxBytes: 256 * 1024 };

  test("a texture by its 63-character hash, asked at exactly that path", async () => {
    expect(await textureBytes(deps, HASH_63)).toEqual(skin);
    expect(images.calls.at(-1)!.path).toBe(`/texture/${HASH_63}`);
  });

  test("the hash pattern: 64 hex, or 56 to 63 without a leading zero; never anything else", () => {
    for (const ok of ["0".repeat(64), HASH_63, `f${"0".repeat(55)}`])
      expect([ok, isTextureHash(ok)]).toEqual([ok, true]);
    for (const bad of [
      `0${HASH_63.slice(1)}`,
      "a".repeat(55),
      "a".repeat(65),
      "A".repeat(64),
      `${"a".repeat(62)}/x`,
      "http://x/texture/aa",
    ]) {
      expect([bad, isTextureHash(bad)]).toEqual([bad, false]);
    }
  });

  test("an unknown texture or item is null; the CDN's HTML 403 is throttling (textures), a status (items)", async () => {
    expect(await textureBytes(deps, "ab".repeat(32))).toBeNull();
    expect(await itemImageBytes(deps, "NOT_AN_ITEM")).toBeNull();
    expect(await itemImageBytes(deps, "ENCHANTED_DIAMOND")).toEqual(itemPng());
    images.state.failure = "gateway403";
    expect(((await failure(textureBytes(deps, HASH_63))) as UpstreamError).reason).toBe("throttled");
    expect(((await failure(itemImageBytes(deps, "ENCHANTED_DIAMOND"))) as UpstreamError).reason).toBe("status");
    images.state.failure = "none";
  });
});

describe("base URLs", () => {
  test("given with trailing slashes, they are trimmed once by config and every client asks the same paths", async () => {
    const notch = recordedName();
    const names = started(fakeNames([{ uuid: notch.id, name: notch.name }]));
    const images = started(fakeImageServer());
    images.files.set(`/texture/${HASH_63}`, skinPng());
    images.files.set("/STONE.png", itemPng());
    const slashed = `${images.url}//`;
    const config = loadConfig(
      envFor({
        namesUrl: `${names.url}/`,
        texturesUrl: slashed,
        itemImagesUrl: slashed,
        identityUrl: slashed,
        gameApiUrl: slashed,
      }),
    );
    for (const url of [config.texturesUrl, config.itemImagesUrl, config.identityUrl, config.gameApiUrl])
      expect(url).toBe(images.url);
    expect(config.namesUrl).toBe(names.url);
    expect(loadConfig(envFor({ chatWebhookUrl: "https://discord.com/api/webhooks/1/tok/" })).chatWebhookUrl).toBe(
      "https://discord.com/api/webhooks/1/tok",
    );
    await uuidForName({ fetch, namesUrl: config.namesUrl, timeoutMs }, "Notch");
    await textureBytes({ fetch, texturesUrl: config.texturesUrl, timeoutMs, maxBytes: 256 * 1024 }, HASH_63);
    await itemImageBytes({ fetch, itemImagesUrl: config.itemImagesUrl, timeoutMs, maxBytes: 256 * 1024 }, "STONE");
    expect(names.calls.map((c) => c.path)).toEqual(["/users/profiles/minecraft/Notch"]);
    expect(images.calls.map((c) => c.path)).toEqual([`/texture/${HASH_63}`, "/STONE.png"]);
  });
});
