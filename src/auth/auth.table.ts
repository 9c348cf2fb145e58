// Sign-in challenges (single-use serverIds) and device sessions (only a token's SHA-256 is kept).
import { pgTable, text, bigint, index } from "drizzle-orm/pg-core";
import { accounts } from "../accounts/accounts.table.ts";

export const authChallenges = pgTable(
  "auth_challenges",
  {
    serverId: text("server_id").primaryKey(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [index("auth_challenges_expires_idx").on(t.expiresAt)],
);

export const deviceSessions = pgTable(
  "device_sessions",
  {
    id: text("id").primaryKey(),
    uuid: text("uuid")
      .notNull()
      .references(() => accounts.uuid, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    device: text("device").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    lastSeenAt: bigint("last_seen_at", { mode: "number" }).notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [index("device_sessions_uuid_idx").on(t.uuid), index("device_sessions_expires_idx").on(t.expiresAt)],
);
