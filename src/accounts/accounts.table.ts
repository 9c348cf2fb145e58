// One row per player who signed in: who they are (uuid from the identity provider, display name),
// their time zone, and everything they set (consent per category, retention, findability, share key).
import { pgTable, text, bigint, integer, boolean, index } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

export const accounts = pgTable(
  "accounts",
  {
    uuid: text("uuid").primaryKey(),
    name: text("name").notNull(),
    zone: text("zone").notNull(),
    /** When the player last changed the zone (null: only the one set at first sign-in). */
    zoneChangedAt: bigint("zone_changed_at", { mode: "number" }),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    settingsVersion: integer("settings_version").notNull().default(1),
    /** Consent categories turned on; every other category is off (contract 1.1.1). */
    consented: text("consented").array().notNull().default(sql`'{}'::text[]`),
    retentionDays: integer("retention_days").notNull(),
    findable: boolean("findable").notNull().default(false),
    /** The figures the player chose to head their page, card and badges, in order (issue 34; empty: the default). */
    headlineKeys: text("headline_keys").array().notNull().default(sql`'{}'::text[]`),
    shareKey: text("share_key").unique(),
    shareKeyCreatedAt: bigint("share_key_created_at", { mode: "number" }),
    lastUploadAt: bigint("last_upload_at", { mode: "number" }),
    /** The mod version (`client.modVersion`) of the latest accepted upload: versions signed-in clients run. */
    modVersion: text("mod_version"),
  },
  // accountByName (the /u/<name> page) looks a name up case-insensitively: lower(name) = lower($1).
  // The expression must stay the query's, or Postgres reads every account instead.
  // accountsOnVersion (bug intake: may a report's version reopen a problem?) reads mod_version.
  (t) => [
    index("accounts_name_lower_idx").on(sql`lower(${t.name})`),
    index("accounts_mod_version_idx").on(t.modVersion),
  ],
);

/**
 * What opens a player's own page (only the SHA-256 of the token is kept): a `link` the mod asked
 * for, spent by its first use, and the `cookie` that use set, never renewed. Each remembers the
 * device session that asked for the link (auth's; no foreign key, as accounts sits below auth):
 * signing that session out deletes them.
 */
export const pageTokens = pgTable(
  "page_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    uuid: text("uuid")
      .notNull()
      .references(() => accounts.uuid, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["link", "cookie"] }).notNull(),
    sessionId: text("session_id").notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [index("page_tokens_expires_idx").on(t.expiresAt)],
);
