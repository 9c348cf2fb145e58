// A month's and a year's review of one account (issue 35), stored once its period has closed in the
// account's zone (recaps.close), so showing one reads this one row. Private until its owner shares
// it: `share_key` opens it at /r/<key>, and revoking sets it back to null.
import { pgTable, text, bigint, jsonb, primaryKey, index } from "drizzle-orm/pg-core";
import type { RecapBody } from "./recap-body.ts";

export const recaps = pgTable(
  "recaps",
  {
    uuid: text("uuid").notNull(),
    /** "2026-10" (a month) or "2026" (a year): calendar periods of the account's zone. */
    period: text("period").notNull(),
    /** When the close job stored it (the clock's epoch ms). */
    closedAt: bigint("closed_at", { mode: "number" }).notNull(),
    body: jsonb("body").$type<RecapBody>().notNull(),
    /** 24 random bytes, base64url; null: not shared. */
    shareKey: text("share_key"),
  },
  (t) => [
    primaryKey({ columns: [t.uuid, t.period] }),
    // /r/<key> finds its recap by key (not unique: a distributed table's unique index must lead with
    // uuid; 192 random bits do not collide).
    index("recaps_share_key_idx").on(t.shareKey),
  ],
);
