// The calendar's aggregate (issue 40): how many keys each profile has observations of on each closed
// day, so the page's calendar of 53 weeks reads at most 371 rows a profile however many keys and
// installs those days hold. Open days (after the account's counter_marks mark, today and the two
// days before at most while the rollups job runs) are counted from their day rows when read.
import { pgTable, text, date, integer, primaryKey } from "drizzle-orm/pg-core";

export const counterDayKeys = pgTable(
  "counter_day_keys",
  {
    uuid: text("uuid").notNull(),
    profileId: text("profile_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    /** Distinct keys of the profile's day rows that day, over every install. */
    keys: integer("keys").notNull(),
  },
  (t) => [primaryKey({ columns: [t.uuid, t.profileId, t.day] })],
);
