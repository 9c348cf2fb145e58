// The game's item list, as last fetched (issue 34): one row, the names by item id as JSON. Reference
// data of the game, not of any player: it is replaced whole by the refresh, never purged, and the
// last good copy stays when the upstream is down.
import { pgTable, smallint, bigint, jsonb } from "drizzle-orm/pg-core";

export const itemList = pgTable("item_list", {
  /** Always 1: the one list. */
  id: smallint("id").primaryKey(),
  /** { "<item id>": ["<name>", "<tier>"?], ... } */
  names: jsonb("names").notNull(),
  /** How many items the list holds. */
  items: bigint("items", { mode: "number" }).notNull(),
  /** When the service fetched it (its clock). */
  fetchedAt: bigint("fetched_at", { mode: "number" }).notNull(),
  /** The upstream's own lastUpdated, when it sent one. */
  lastUpdated: bigint("last_updated", { mode: "number" }),
});
