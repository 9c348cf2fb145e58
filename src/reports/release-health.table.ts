// Release health: how many installs with statistics on run each mod version each UTC day, and how
// many bug reports came from it. Uploads write the day's scratch (one row per install, version and
// day); the fold job counts it into `report_version_days` and deletes it once the day is over, so no
// install id outlives the day after it. The aggregate holds no uuid, install id or profile.
import { pgTable, text, integer, bigint, primaryKey, index } from "drizzle-orm/pg-core";

/** Installs that uploaded, by UTC day and mod version: scratch, deleted once the day is counted. */
export const reportInstallDays = pgTable(
  "report_install_days",
  {
    day: text("day").notNull(),
    version: text("version").notNull(),
    install: text("install").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.version, t.install] })],
);

/** Per mod version and UTC day: active installs with statistics on, and bug reports received. */
export const reportVersionDays = pgTable(
  "report_version_days",
  {
    version: text("version").notNull(),
    day: text("day").notNull(),
    installs: integer("installs").notNull().default(0),
    reports: integer("reports").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.version, t.day] }), index("report_version_days_day_idx").on(t.day)],
);

/** The chat's release summaries: posted once when a version reaches its adoption, once a week later. */
export const reportReleasePosts = pgTable("report_release_posts", {
  version: text("version").primaryKey(),
  /** The day the version first reached RELEASE_SUMMARY_MIN_INSTALLS active installs. */
  reachedDay: text("reached_day").notNull(),
  /** 0: nothing posted yet; 1: the first summary; 2: the week-later one too. */
  posted: integer("posted").notNull().default(0),
  attempts: integer("attempts").notNull().default(0),
  dueAt: bigint("due_at", { mode: "number" }).notNull(),
});
