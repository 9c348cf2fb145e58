import { and, eq, inArray, lt, or } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { assetCache } from "./assets.table.ts";

/** "unknown-head": a uuid the identity provider did not know (an empty row, kept briefly). */
export type AssetKind = "skin" | "head" | "item" | "unknown-head";
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

export async function forgetAsset(db: Db, kind: AssetKind, id: string) {
  await db.delete(assetCache).where(and(eq(assetCache.kind, kind), eq(assetCache.id, id)));
}

/** Deletes rows fetched before `before`, and unknown-player rows fetched before `unknownBefore`; answers how many. */
export async function purgeAssets(db: Db, before: number, unknownBefore: number): Promise<number> {
  const gone = await db
    .delete(assetCache)
    .where(
      or(
        lt(assetCache.fetchedAt, before),
        and(eq(assetCache.kind, "unknown-head"), lt(assetCache.fetchedAt, unknownBefore)),
      ),
    )
    .returning({ kind: assetCache.kind });
  return gone.length;
}

/** Deletes every image kept under this player's uuid (the head, and the note that it was unknown). */
export async function forgetPlayerAssets(db: Db, uuid: string): Promise<number> {
  const gone = await db
    .delete(assetCache)
    .where(and(inArray(assetCache.kind, ["head", "unknown-head"]), eq(assetCache.id, uuid)))
    .returning({ kind: assetCache.kind });
  return gone.length;
}
