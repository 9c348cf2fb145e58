// Bodies recorded from the real services (test/support/recorded/, each with its source in the
// README there). Fakes replay them; tests assert against values read from them.
import { join } from "node:path";
import { readFileSync } from "node:fs";

const dir = join(import.meta.dir, "recorded");
const read = (path: string) => readFileSync(join(dir, path), "utf8");

export type RecordedProfiles = { success: true; profiles: Record<string, unknown>[] };

/** The players whose /v2/skyblock/profiles answers were recorded (undashed uuids). */
export const RECORDED_PLAYERS = [
  "28dfd0f3a48443e49278df91f909b596",
  "c944a8cf55d74de2a6e0df125c6dadb9",
  "c488c75c149f4bf9b3ad92b0bad37158",
  "17f4f6bbe838449fbdba93749dccfb55",
] as const;

/** A fresh copy of one player's recorded answer (tests may change their copy). */
export function recordedProfiles(uuid: (typeof RECORDED_PLAYERS)[number]): RecordedProfiles {
  return JSON.parse(read(`hypixel/profiles-${uuid}.json`)) as RecordedProfiles;
}

/** The recorded item list (GET /v2/resources/skyblock/items), trimmed: { success, lastUpdated, items }. */
export const recordedItemList = () =>
  JSON.parse(read("hypixel/skyblock-items.json")) as {
    success: true;
    lastUpdated: number;
    items: { id: string; name: string; tier?: string }[];
  };

/**
 * The names of the whole recorded item list of January 2022 (fan87/Hypixel-Skyblock-Remake-OLD's
 * `generators/items.json`, the endpoint's `items` array), id to name, every other key dropped.
 */
export const recordedItemNames2022 = () =>
  JSON.parse(read("hypixel/skyblock-item-names-2022.json")) as Record<string, string>;

/** The recorded name lookup (api.mojang.com /users/profiles/minecraft/Notch). */
export const recordedName = () => JSON.parse(read("mojang/names-notch.json")) as { id: string; name: string };

/** The recorded session-server profile with textures (signature left out, as without ?unsigned=false). */
export const recordedSessionProfile = () => read("mojang/session-profile-123lmfao4.json");

/** The HTML page Mojang's gateway answers with 403 to a caller over its limit. */
export const gateway403Html = () => read("mojang/gateway-403.html");

/** The JSON body of a Mojang 429. */
export const tooManyRequests = () => read("mojang/too-many-requests.json");

/** A real 63-character texture hash (a leading zero dropped): nodecraft/crafthead#114. */
export const HASH_63 = "67f7105027d3d2b8eba224c980ad04d9c5a151b58e373c20fed5a4e4c164c05";
