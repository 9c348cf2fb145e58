// Sessions, timeline events and the mirror (contract 2.5), each replaced by its own rule.
import { pgTable, text, bigint, date, jsonb, primaryKey } from "drizzle-orm/pg-core";

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
  (t) => [primaryKey({ columns: [t.uuid, t.id] })],
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
  (t) => [primaryKey({ columns: [t.uuid, t.id] })],
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
