// Fixed-window request counters, in Postgres so every instance shares them.
import { pgTable, text, bigint, integer, index } from "drizzle-orm/pg-core";

export const rateLimits = pgTable(
  "rate_limits",
  {
    bucket: text("bucket").primaryKey(),
    windowStart: bigint("window_start", { mode: "number" }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [index("rate_limits_window_idx").on(t.windowStart)],
);
