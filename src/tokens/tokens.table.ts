// Personal access tokens: a player's read-only credentials for their own tools (issue 37). Only a
// token's SHA-256 is kept; scopes are one space-separated text (as OAuth spells them).
import { pgTable, text, bigint, index } from "drizzle-orm/pg-core";
import { accounts } from "../accounts/accounts.table.ts";

export const accessTokens = pgTable(
  "access_tokens",
  {
    id: text("id").primaryKey(),
    uuid: text("uuid")
      .notNull()
      .references(() => accounts.uuid, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    label: text("label").notNull(),
    scopes: text("scopes").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    lastUsedAt: bigint("last_used_at", { mode: "number" }),
    /** Null: the token does not expire (only when TOKEN_MAX_DAYS is 0). */
    expiresAt: bigint("expires_at", { mode: "number" }),
  },
  (t) => [index("access_tokens_uuid_idx").on(t.uuid, t.createdAt)],
);
