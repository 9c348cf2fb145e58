// The profile source's cache: one allowlisted document per uuid (never the upstream response), and
// player names resolved to uuids. Rows, so every instance shares them.
import { pgTable, text, bigint, jsonb } from "drizzle-orm/pg-core";

export const profileCache = pgTable("profile_cache", {
  uuid: text("uuid").primaryKey(),
  /** The allowlisted profiles array (see allowlist.ts). */
  profiles: jsonb("profiles").notNull(),
  fetchedAt: bigint("fetched_at", { mode: "number" }).notNull(),
});

export const playerNames = pgTable("player_names", {
  /** The name in lower case: names are unique case-insensitively. */
  nameKey: text("name_key").primaryKey(),
  uuid: text("uuid").notNull(),
  name: text("name").notNull(),
  fetchedAt: bigint("fetched_at", { mode: "number" }).notNull(),
});
