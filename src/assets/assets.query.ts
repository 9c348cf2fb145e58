import { and, eq } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { assetCache } from "./assets.table.ts";

export type AssetKind = "skin" | "head" | "item";
export type CachedAsset = { png: Uint8Array; etag: string; fetchedAt: number };

export async function cachedAsset(db: Db, kind: AssetKind, id: string): Promise<CachedAsset | undefined> {
  const [row] = await db
    .select({ png: assetCache.png, etag: assetCache.etag, fetchedAt: assetCache.fetchedAt })
    .from(assetCache)
    .where(and(eq(assetCache.kind, kind), eq(assetCache.id, id)));
  return row;
}

export async function storeAsset(db: Db, kind: AssetKind, id: string, asset: CachedAsset) {
  await db
    .insert(assetCache)
    .values({ kind, id, ...asset })
    .onConflictDoUpdate({ target: [assetCache.kind, assetCache.id], set: asset });
}
