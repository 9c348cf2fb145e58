// Sessions, timeline events and the mirror (contract 2.5), each replaced by its own rule.
import { pgTable, text, bigint, date, jsonb, numeric, integer, primaryKey, index } from "drizzle-orm/pg-core";

const epoch = (name: string) => bigint(name, { mode: "number" });

export type Amount = { k: string; v: number };

/** Replaced by id, only by a copy that ended at least as late. */
export const sessions = pgTable(
  "sessions",
  {
    uuid: text("uuid").notNull(),
    id: text("id").notNull(),
    profileId: text("profile_id").notNull(),
    installId: text("install_id").notNull(),
    activity: text("activity").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    startedAt: epoch("started_at").notNull(),
    endedAt: epoch("ended_at").notNull(),
    gains: jsonb("gains").$type<Amount[]>().notNull(),
    costs: jsonb("costs").$type<Amount[]>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.uuid, t.id] }),
    // A profile's latest sessions (the page's list) without reading the account's others.
    index("sessions_profile_start_idx").on(t.uuid, t.profileId, t.startedAt),
  ],
);

/**
 * The sessions of one profile, day and activity summed (rates per hour): the activity's own line
 * (side '', key '': summed length in ms, sessions) and one line per gain or cost key (summed amount,
 * how many times it was listed). Written with each session write by the difference it makes, so the
 * page reads a range's lines, never its sessions: an account that uploads a thousand sessions a day
 * does not make its page read them all. Bookkeeping of `sessions`, gone with it at erasure.
 */
export const sessionRates = pgTable(
  "session_rates",
  {
    uuid: text("uuid").notNull(),
    profileId: text("profile_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    activity: text("activity").notNull(),
    side: text("side").notNull(),
    key: text("key").notNull(),
    amount: numeric("amount").notNull(),
    sessions: integer("sessions").notNull(),
  },
  (t) => [primaryKey({ columns: [t.uuid, t.profileId, t.day, t.activity, t.side, t.key] })],
);

/** A repeated id is ignored. */
export const timelineEvents = pgTable(
  "timeline_events",
  {
    uuid: text("uuid").notNull(),
    id: text("id").notNull(),
    profileId: text("profile_id").notNull(),
    installId: text("install_id").notNull(),
    kind: text("kind").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    at: epoch("at").notNull(),
    key: text("key"),
    value: bigint("value", { mode: "number" }),
  },
  (t) => [
    primaryKey({ columns: [t.uuid, t.id] }),
    // A profile's latest events (the page's timeline) without reading the account's others.
    index("timeline_events_profile_at_idx").on(t.uuid, t.profileId, t.at),
  ],
);

/** Replaced by section, only by a newer observation. */
export const mirrorSections = pgTable(
  "mirror_sections",
  {
    uuid: text("uuid").notNull(),
    profileId: text("profile_id").notNull(),
    section: text("section").notNull(),
    installId: text("install_id").notNull(),
    observedAt: epoch("observed_at").notNull(),
    values: jsonb("values").$type<Amount[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.uuid, t.profileId, t.section] })],
);
