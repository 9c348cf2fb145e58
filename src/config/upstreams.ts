// Settings: The upstream services and what one call may cost (src/upstream/).
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { setting, Url, OptionalUrl, Millis, Bytes } from "./setting.ts";

export const upstreamsSettings = {
  gameApiUrl: setting({
    env: "GAME_API_URL",
    schema: Url,
    default: "https://api.hypixel.net",
    doc: "Game platform API (profile lookups).",
  }),
  gameApiKey: setting({
    env: "GAME_API_KEY",
    schema: T.String({ maxLength: 256 }),
    default: "",
    doc: "The project's game API key. Empty: profile lookups answer no_upstream_key.",
    secret: true,
  }),
  gameApiMaxBytes: setting({
    env: "GAME_API_MAX_BYTES",
    schema: Bytes(1024 * 1024, 256 * 1024 * 1024),
    default: String(16 * 1024 * 1024),
    doc: "Largest game API answer read, in bytes (real profile answers run to about 3 MB); a larger one is refused as the upstream failing, read no further.",
  }),
  gameApiReserve: setting({
    env: "GAME_API_RESERVE",
    schema: T.Integer({ minimum: 0, maximum: 1000 }),
    default: "5",
    doc: "Calls of the game API's rate-limit window left unused: at this RateLimit-Remaining, lookups wait for RateLimit-Reset.",
  }),
  identityUrl: setting({
    env: "IDENTITY_URL",
    schema: Url,
    default: "https://sessionserver.mojang.com",
    doc: "Identity provider's session server (hasJoined, profile textures).",
  }),
  namesUrl: setting({
    env: "NAMES_URL",
    schema: Url,
    default: "https://api.mojang.com",
    doc: "Name to uuid look-ups.",
  }),
  texturesUrl: setting({
    env: "TEXTURES_URL",
    schema: Url,
    default: "https://textures.minecraft.net",
    doc: "Skin textures by hash.",
  }),
  itemImagesUrl: setting({
    env: "ITEM_IMAGES_URL",
    schema: OptionalUrl,
    default: "",
    doc: "Item images by item id. Empty: item images are not proxied.",
  }),
  upstreamTimeoutMs: setting({
    env: "UPSTREAM_TIMEOUT_MS",
    schema: Millis(100, 60_000),
    default: "5000",
    doc: "How long any upstream call a request waits on (identity provider, game API, names, images) may take before it counts as down. The chat outbox has CHAT_TIMEOUT_MS.",
  }),
  upstreamMissBudget: setting({
    env: "UPSTREAM_MISS_BUDGET_PER_MINUTE",
    schema: T.Integer({ minimum: 0, maximum: 1_000_000 }),
    default: "60",
    doc: "Cache misses each upstream (game API, name service, identity provider for heads, textures, item images) may cost per minute, over every client and instance together; beyond, a stale copy or the default head is served, else 503 upstream_rate_limited. Sign-ins never count. 0: no budget.",
  }),
} as const;
