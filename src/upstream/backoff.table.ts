// When an upstream told us to stop (a 429, or its rate-limit budget down to our reserve), every
// instance waits until this time before asking it again.
import { pgTable, text, bigint } from "drizzle-orm/pg-core";

export const upstreamBackoff = pgTable("upstream_backoff", {
  upstream: text("upstream").primaryKey(),
  until: bigint("until", { mode: "number" }).notNull(),
});
