// The stats wing's date horizons, each counted from the account's today (in its zone) or from now:
// which days are sealed, which stay open, and how long a batchId answers as a duplicate.
import { SEAL_HORIZON_DAYS } from "../config.ts";
import { addDays, dayIn } from "../wire/day.ts";

/** The oldest writable day of an account (its today minus the horizon): older days are sealed. */
export const sealedBefore = (zone: string, now: number) => addDays(dayIn(zone, now), -SEAL_HORIZON_DAYS);

/** Days kept open, counted back from the account's today: today and yesterday. */
const OPEN_DAYS = 2;

/** The mark an account's days are closed through at `now`: its today minus OPEN_DAYS. */
export const markFor = (zone: string, now: number) => addDays(dayIn(zone, now), -OPEN_DAYS);

/** Contract 4.1 and 8: the same batchId within 7 days is a duplicate. */
export const BATCH_WINDOW_MS = 7 * 86_400_000;
