// The writes of one upload, in its transaction and in this order: the batchId claimed, the keys
// pinned, the counters (the open-days write when it may, else the general one), the activity, and
// the answer stored for duplicates.
import type { Db } from "../db/database.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import { ApiError } from "../http/errors.ts";
import { isOutOfRange } from "../db/errors.ts";
import { SAFE_LIMIT } from "../wire/safe-integer.ts";
import type { Account } from "../accounts/accounts.ts";
import type { Envelope } from "../wire/envelope.ts";
import { finishUpload, lockAndClaimBatch, pinKeys, storedAnswer, type KeyPin } from "./ingest.query.ts";
import { upsertBackfills, upsertDays, upsertOpenDays } from "./ingest-days.query.ts";
import { insertEvents, upsertMirror, upsertSessions } from "./ingest-activity.query.ts";
import { BATCH_WINDOW_MS, markFor } from "./horizons.ts";
import type { AccountMark } from "./counters.query.ts";
import { countWrittenDays } from "./calendar.query.ts";
import {
  firstPin,
  outOfRange,
  type Answer,
  type DayTarget,
  type Kept,
  type Sorted,
  type Target,
} from "./ingest-kept.ts";

/**
 * Claims the upload's batchId under the account's stats lock (closing the account's early days on
 * its first upload). A batchId already claimed within the window answers its stored answer, marked
 * a duplicate; null: the upload is new and applies.
 */
export async function claimBatch(
  tx: Db,
  uuid: string,
  env: Envelope,
  account: Account,
  now: number,
): Promise<Answer | null> {
  const claimed = await lockAndClaimBatch(
    tx,
    uuid,
    env.batchId,
    now,
    now - BATCH_WINDOW_MS,
    markFor(account.zone, now),
  );
  if (claimed) return null;
  const stored = await storedAnswer(tx, uuid, env.batchId);
  return { ...(JSON.parse(stored!) as Answer), duplicate: true };
}

/**
 * The pin of every key of these rows: the instance's known pins, and the others pinned now (a key
 * first seen takes its first row's declaration). `learned`: pins read from the database here.
 */
export async function pinRowKeys(
  tx: Db,
  deps: { pins: Map<string, KeyPin>; catalogue: Catalogue },
  rows: Target[],
  now: number,
) {
  const firstDeclared = new Map<string, string | undefined>();
  for (const r of rows)
    if (!firstDeclared.has(r.key) || firstDeclared.get(r.key) === undefined) firstDeclared.set(r.key, r.declared);
  const unknown = [...firstDeclared].filter(([key]) => !deps.pins.has(key));
  const learned = await pinKeys(
    tx,
    unknown.map(([key, declared]) => firstPin(deps.catalogue, key, declared)),
    now,
  );
  const pinned = new Map<string, KeyPin>(learned.map((pin) => [pin.key, pin]));
  for (const key of firstDeclared.keys()) if (deps.pins.has(key)) pinned.set(key, deps.pins.get(key)!);
  return { learned, pinned };
}

const LIMIT = BigInt(SAFE_LIMIT);

/**
 * Whether these day rows may take the open-days write (upsertOpenDays), and with how many rows one
 * (profile, key) has at most; null: the general write (upsertDays). Every row must lie after the
 * account's mark, and no count key may be able to leave the safe range whatever its rows replace: a
 * key's positive part grows by at most the sum of its rows' positive values (each row's part is at
 * most its value, and what it replaces was at least 0), within the mark's bound; likewise negative.
 */
function openDaysOnly(dayRows: DayTarget[], mark: AccountMark | null): number | null {
  if (!mark || mark.posBound === null || mark.negBound === null || dayRows.length === 0) return null;
  const perKey = new Map<string, number>();
  let most = 0;
  let maxPos = 0;
  let minNeg = 0;
  for (const r of dayRows) {
    if (r.day <= mark.closedThrough) return null;
    const id = `${r.profileId}\t${r.key}`;
    const n = (perKey.get(id) ?? 0) + 1;
    perKey.set(id, n);
    if (n > most) most = n;
    if (r.kind !== "count") continue;
    if (r.value > maxPos) maxPos = r.value;
    if (r.value < minNeg) minNeg = r.value;
  }
  const days = BigInt(most);
  const within =
    BigInt(mark.posBound) + days * BigInt(maxPos) <= LIMIT && BigInt(mark.negBound) + days * BigInt(minNeg) >= -LIMIT;
  return within ? most : null;
}

/** Writes the day rows (refusing the upload if a count key would leave the safe range), then the backfills. */
export async function writeCounters(
  tx: Db,
  uuid: string,
  env: Envelope,
  rows: Sorted,
  sealedBeforeDay: string,
  mark: AccountMark | null,
) {
  const { dayRows, backfills } = rows;
  const perKey = openDaysOnly(dayRows, mark);
  if (perKey !== null) {
    await upsertOpenDays(tx, uuid, env.client.install, env.sentAt, dayRows, perKey);
    await upsertBackfills(tx, uuid, env.client.install, env.sentAt, backfills);
    return;
  }
  const over = await upsertDays(tx, uuid, env.client.install, env.sentAt, dayRows).catch((error: unknown) => {
    // The statement answers the keys it could not move; a check or bigint fault it did not
    // foresee (a total stored before the check existed) is the same refusal, not a 500.
    if (isOutOfRange(error))
      throw new ApiError(
        "total_out_of_range",
        `a lifetime total would leave the safe integer range ±${SAFE_LIMIT}; nothing of this upload was stored`,
        "/counters",
      );
    throw error;
  });
  if (over.length > 0) throw outOfRange(env, sealedBeforeDay, over);
  // Rows on closed days change what the calendar's aggregate holds for them (an upload of open days
  // never gets here with one).
  const closed = new Map<string, { profileId: string; day: string }>();
  for (const r of dayRows)
    if (mark && r.day <= mark.closedThrough)
      closed.set(`${r.profileId} ${r.day}`, { profileId: r.profileId, day: r.day });
  await countWrittenDays(tx, uuid, [...closed.values()]);
  await upsertBackfills(tx, uuid, env.client.install, env.sentAt, backfills);
}

/** Writes the kept sessions, timeline events and mirror sections; answers how many of each were written. */
export async function writeActivity(tx: Db, uuid: string, env: Envelope, kept: Kept) {
  const { install } = env.client;
  const profileId = env.profile.id;
  const sessions = await upsertSessions(
    tx,
    uuid,
    install,
    kept.sessions.map((s) => ({ ...s, profileId })),
  );
  const events = await insertEvents(
    tx,
    uuid,
    install,
    kept.events.map((e) => ({
      id: e.id,
      profileId,
      kind: e.kind,
      day: e.day,
      at: e.at,
      key: e.key ?? null,
      value: e.value ?? null,
    })),
  );
  const sections = env.mirror
    ? await upsertMirror(
        tx,
        uuid,
        profileId,
        install,
        env.mirror.observedAt,
        kept.sections.map((s) => ({ section: s.name, values: s.values })),
      )
    : 0;
  return { sessions, events, sections };
}

/**
 * Stores the answer for duplicates of the batchId. Statistics off stores nothing (1.1 rule 1): the
 * profile is noted only when something was kept.
 */
export async function finish(
  tx: Db,
  uuid: string,
  env: Envelope,
  answer: Answer,
  kept: Kept,
  rows: number,
  maxProfiles: number,
) {
  const keptAny = rows + kept.sessions.length + kept.events.length + kept.sections.length > 0;
  const { id: profileId, cuteName } = env.profile;
  const noted = await finishUpload(
    tx,
    uuid,
    env.batchId,
    JSON.stringify(answer),
    keptAny ? { profileId, cuteName, sentAt: env.sentAt, maxProfiles } : undefined,
  );
  // Thrown inside the upload's transaction: nothing of it is stored.
  if (!noted)
    throw new ApiError(
      "too_many_profiles",
      `an account's statistics hold at most ${maxProfiles} profiles (STATS_MAX_PROFILES_PER_ACCOUNT) and this upload's profile would be one more; nothing of it was stored`,
      "/profile/id",
    );
}
