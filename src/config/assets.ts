// Settings: The image proxy: heads, skins, item images (src/assets/).
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { setting, Bytes } from "./setting.ts";

export const assetsSettings = {
  assetCacheHours: setting({
    env: "ASSET_CACHE_HOURS",
    schema: T.Integer({ minimum: 1, maximum: 720 }),
    default: "24",
    doc: "How long a rendered head or an item image is kept before its upstream is asked again, in hours (a skin, addressed by its hash, never changes and is not asked again; every image is forgotten after CACHE_MAX_AGE_HOURS).",
  }),
  unknownPlayerCacheMinutes: setting({
    env: "UNKNOWN_PLAYER_CACHE_MINUTES",
    schema: T.Integer({ minimum: 1, maximum: 1440 }),
    default: "10",
    doc: "How long a head asked for a uuid the identity provider does not know is answered without asking again (the default head is shown; nothing else is kept), in minutes.",
  }),
  imageMaxBytes: setting({
    env: "IMAGE_MAX_BYTES",
    schema: Bytes(1024, 16 * 1024 * 1024),
    default: "262144",
    doc: "Largest image the proxy accepts from an upstream, in bytes; a larger one is refused unread.",
  }),
  itemImageMaxSide: setting({
    env: "ITEM_IMAGE_MAX_SIDE",
    schema: T.Integer({ minimum: 16, maximum: 1024 }),
    default: "256",
    doc: "Largest width or height of an item image, in pixels.",
  }),
  assetRateLimit: setting({
    env: "ASSET_RATE_LIMIT_PER_MINUTE",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "600",
    doc: "Image proxy requests one client address may make per minute. 0: no limit.",
  }),
} as const;
