// Re-encoded images of the proxy: skins by texture hash (content-addressed, never asked again while cached),
// rendered heads by uuid and item images by item id (refreshed after ASSET_CACHE_HOURS).
import { pgTable, text, bigint, customType, primaryKey } from "drizzle-orm/pg-core";

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
  fromDriver: (value) => new Uint8Array(value),
});

export const assetCache = pgTable(
  "asset_cache",
  {
    kind: text("kind").notNull(),
    id: text("id").notNull(),
    png: bytea("png").notNull(),
    etag: text("etag").notNull(),
    fetchedAt: bigint("fetched_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.id] })],
);
