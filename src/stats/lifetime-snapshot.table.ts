// The lifetime memo kept in the database (issue 40): a large profile's every key with its lifetime
// figure, as one text, for the account state it was read at. A page after a restart, after the
// memo forgot the account, or on another instance reads this one row (about 230 bytes a key: a
// 10 000-key profile is ~2.3 MB, 12-15 ms) instead of folding every key (150-180 ms). Derived data:
// a later read replaces it, and erasure, import and retention delete it with what they change.
import { pgTable, text, bigint, primaryKey } from "drizzle-orm/pg-core";

export const lifetimeSnapshots = pgTable(
  "lifetime_snapshots",
  {
    uuid: text("uuid").notNull(),
    profileId: text("profile_id").notNull(),
    /** The account state (lifetime-memo.ts lifetimeState) the figures were read at: any other state ignores them. */
    state: text("state").notNull(),
    /** The catalogue's version and the item list's copy its labels were made with. */
    labels: text("labels").notNull(),
    /** When the figures were last read whole (epoch ms): past the memo's time to live they are read again. */
    readAt: bigint("read_at", { mode: "number" }).notNull(),
    /** JSON: the figures in key order, labels made, before labels two keys share are told apart. */
    figures: text("figures").notNull(),
  },
  (t) => [primaryKey({ columns: [t.uuid, t.profileId] })],
);
