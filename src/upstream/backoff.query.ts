import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { upstreamBackoff } from "./backoff.table.ts";

export async function backoffUntil(db: Db, upstream: string): Promise<number> {
  const [row] = await db
    .select({ until: upstreamBackoff.until })
    .from(upstreamBackoff)
    .where(eq(upstreamBackoff.upstream, upstream));
  return row?.until ?? 0;
}

/** Sets the back-off horizon; a later horizon already recorded by another instance is kept. */
export async function extendBackoff(db: Db, upstream: string, until: number) {
  await db
    .insert(upstreamBackoff)
    .values({ upstream, until })
    .onConflictDoUpdate({
      target: upstreamBackoff.upstream,
      set: { until: sql`greatest(${upstreamBackoff.until}, excluded.until)` },
    });
}
