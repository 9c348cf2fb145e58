// Rates per hour (issue 16): a session's gains and costs over its length, and each activity's over
// the summed length of its sessions in a range. A session of no length has no rate.
import type { Db } from "../db/database.ts";
import { rateRows } from "./rates.query.ts";

const HOUR_MS = 3_600_000;

/**
 * The most day lines (an activity, a gain or a cost of one day) a range's rates read: a real
 * player's year is a few thousand; past it the oldest days are left out and the page says from
 * which day it counts (docs/decisions.md, "Many sessions on the statistics page").
 */
export const RATE_LINES_MAX = 20_000;

/** An amount per hour over `ms` (null when `ms` is not positive). */
export const perHour = (amount: number, ms: number): number | null => (ms > 0 ? (amount * HOUR_MS) / ms : null);

export type Amount = { k: string; v: number; perHour: number | null };
export type ActivityRate = { activity: string; sessions: number; ms: number; gains: Amount[]; costs: Amount[] };
/** `since`: the first day counted (`from`, unless the range held more than the lines read). */
export type RangeRates = { since: string; activities: ActivityRate[] };

/** Each activity of one profile's sessions begun in [from, to], with its gains and costs per hour. */
export async function activityRates(
  db: Db,
  uuid: string,
  profileId: string,
  from: string,
  to: string,
  maxLines = RATE_LINES_MAX,
): Promise<RangeRates> {
  const out: RangeRates = { since: from, activities: [] };
  for (const r of await rateRows(db, uuid, profileId, from, to, maxLines)) {
    out.since = r.since;
    if (r.side === null) {
      out.activities.push({
        activity: r.activity,
        sessions: Number(r.sessions),
        ms: Number(r.amount),
        gains: [],
        costs: [],
      });
      continue;
    }
    const a = out.activities.at(-1)!;
    const v = Number(r.amount);
    (r.side === "gain" ? a.gains : a.costs).push({ k: r.key!, v, perHour: perHour(v, a.ms) });
  }
  return out;
}
