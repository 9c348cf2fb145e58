// POST /v1/stats/ingest: one envelope, applied in one transaction under one batchId (contract 4.1).
// Order: the rules that refuse a whole upload; then, in the transaction, the batchId (a duplicate
// answers the stored answer and applies nothing), rows of categories the account turned off
// (dropped), day rows older than the seal horizon (refused day_sealed), key pinning, the writes.
import type { Static } from "@sinclair/typebox";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Log } from "../log.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { isOutOfRange } from "../db/errors.ts";
import { SAFE_LIMIT } from "../wire/safe-integer.ts";
import { markUpload, requireAccount, type Account } from "../accounts/accounts.ts";
import { ACCOUNT_PROFILE, type Envelope } from "../wire/envelope.ts";
import { isModVersion } from "../wire/mod-version.ts";
import { checkEnvelope, namespaceOf } from "./ingest-checks.ts";
import type { IngestAnswer } from "./ingest.schema.ts";
import * as q from "./ingest.query.ts";
import { BATCH_WINDOW_MS, markFor, sealedBefore } from "./horizons.ts";
import { resealedDays } from "./seal.ts";
import { capKeys, keyCapWarning, keepHeldDigest } from "./key-cap.ts";
import { readMark, type AccountMark } from "./counters.query.ts";
import { countWrittenDays } from "./calendar.query.ts";
import { countInstall } from "../reports/release-health.ts";

export type IngestDeps = {
  db: Db;
  clock: Clock;
  log: Log;
  catalogue: Catalogue;
  config: Pick<Config, "ingestMaxRows" | "clockSkewWarnMs" | "statsMaxKeysPerProfile" | "statsMaxProfilesPerAccount">;
  /**
   * Pins already read from the database. A pin never changes once written (contract 2.3 rule 4),
   * so each instance may keep what it has seen; only committed pins are added.
   */
  pins: Map<string, q.KeyPin>;
  /**
   * Called once an upload has committed (not for a duplicate), with what it wrote: the boards keep
   * their scores from it (issue 35). Set by createApp, so stats imports nothing of boards; a fault
   * in it is logged, never the upload's.
   */
  afterUpload?: (upload: UploadDone) => Promise<void>;
};

/** What a committed upload wrote: the account's zone, its profile, and each row's key and day (null: a backfill). */
export type UploadDone = {
  uuid: string;
  zone: string;
  profile: { id: string; cuteName: string };
  rows: { profileId: string; key: string; day: string | null }[];
};

type Answer = Static<typeof IngestAnswer>;
type Warning = Answer["warnings"][number];

/** Kind, unit and category a key is pinned with the first time it arrives. */
export function firstPin(catalogue: Catalogue, key: string, declared: string | undefined): q.KeyPin {
  const known = catalogue.lookup(key);
  if (known) return { key, kind: known.kind, unit: known.unit, category: known.category };
  // A key absent from the catalogue still uploads (2.2): its row's declaration, else a plain count.
  return { key, kind: declared ?? "count", unit: "count", category: catalogue.categoryOf.get(namespaceOf(key))! };
}

function envelopeWarnings(env: Envelope, account: Account, deps: IngestDeps, now: number): Warning[] {
  const warnings: Warning[] = [];
  if (Math.abs(env.sentAt - now) > deps.config.clockSkewWarnMs) {
    warnings.push({
      code: "clock_skew",
      message: `sentAt is ${Math.round((env.sentAt - now) / 1000)} s from the service's clock; check the computer's clock`,
    });
  }
  if (env.client.catalogue !== deps.catalogue.version) {
    warnings.push({
      code: "catalogue_mismatch",
      message: `the client holds catalogue ${env.client.catalogue}; the service serves ${deps.catalogue.version}`,
    });
  }
  if (env.zone.id !== account.zone)
    warnings.push({
      code: "zone_mismatch",
      message: `days must be labelled in the account's zone ${account.zone}, not ${env.zone.id}`,
    });
  if (env.settingsVersion !== account.settingsVersion) {
    warnings.push({
      code: "settings_changed",
      message: `settings are at version ${account.settingsVersion}; fetch them again`,
    });
  }
  return warnings;
}

/** Which payload items belong to a category that is off; they are dropped, and counted. */
function consentFilter(env: Envelope, off: Set<string>, catalogue: Catalogue) {
  // Every category the payload holds is on (the usual upload): nothing to look at row by row.
  if (off.size === 0)
    return {
      blocks: env.counters ?? [],
      sessions: env.sessions ?? [],
      events: env.timeline ?? [],
      sections: env.mirror?.sections ?? [],
      dropped: 0,
    };
  const isOff = (key: string) => off.has(catalogue.categoryOf.get(namespaceOf(key))!);
  let dropped = 0;
  const keep = <T>(items: T[], offItem: (item: T) => boolean) =>
    items.filter((item) => {
      const gone = offItem(item);
      if (gone) dropped++;
      return !gone;
    });
  const blocks = (env.counters ?? []).map((b) => ({ ...b, rows: keep(b.rows, (r) => isOff(r.k)) }));
  const sessions = keep(env.sessions ?? [], (s) => [...s.gains, ...s.costs].some((a) => isOff(a.k)));
  const events = keep(env.timeline ?? [], (e) => e.key !== undefined && isOff(e.key));
  const sections = keep(env.mirror?.sections ?? [], (s) => s.values.some((a) => isOff(a.k)));
  return { blocks, sessions, events, sections, dropped };
}

/**
 * The refusal of an upload that would push a count key's stored day values past the safe integer
 * range: names the first such row of the envelope. Thrown inside the transaction, so nothing of the
 * upload stays, the batchId included (a corrected upload may reuse it).
 */
function outOfRange(env: Envelope, sealedBeforeDay: string, over: { profileId: string; key: string }[]): ApiError {
  const hit = new Set(over.map((o) => `${o.profileId}/${o.key}`));
  const blocks = env.counters ?? [];
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    if (block.scope !== "day" || block.day < sealedBeforeDay) continue;
    const r = block.rows.findIndex((row) => hit.has(`${block.profileId}/${row.k}`));
    if (r >= 0) {
      const key = block.rows[r]!.k;
      return new ApiError(
        "total_out_of_range",
        `${key}: with this upload the stored day values of the key would add up past the safe integer range ±${SAFE_LIMIT}, which an answer cannot carry exactly; nothing of this upload was stored`,
        `/counters/${b}/rows/${r}/v`,
      );
    }
  }
  const first = over[0]!;
  return new ApiError(
    "total_out_of_range",
    `${first.key}: a lifetime total would leave the safe integer range ±${SAFE_LIMIT}; nothing of this upload was stored`,
    "/counters",
  );
}

type Kept = ReturnType<typeof consentFilter>;
type Target = { profileId: string; key: string; day: string; value: number; declared?: string };
type DayTarget = q.DayRow & { declared?: string };

/**
 * Claims the upload's batchId under the account's stats lock (closing the account's early days on
 * its first upload). A batchId already claimed within the window answers its stored answer, marked
 * a duplicate; null: the upload is new and applies.
 */
async function claimBatch(tx: Db, uuid: string, env: Envelope, account: Account, now: number): Promise<Answer | null> {
  const claimed = await q.lockAndClaimBatch(
    tx,
    uuid,
    env.batchId,
    now,
    now - BATCH_WINDOW_MS,
    markFor(account.zone, now),
  );
  if (claimed) return null;
  const stored = await q.storedAnswer(tx, uuid, env.batchId);
  return { ...(JSON.parse(stored!) as Answer), duplicate: true };
}

/** The kept blocks' day rows and backfills; a day block older than the seal horizon is refused, counted by day. */
function splitBlocks(blocks: Kept["blocks"], sealedBeforeDay: string, resealed: Set<string>) {
  const refusedByDay = new Map<string, number>();
  const dayRows: DayTarget[] = [];
  const backfills: (q.BackfillRow & { declared?: string })[] = [];
  for (const block of blocks) {
    if (block.scope === "day" && (block.day < sealedBeforeDay || resealed.has(block.day))) {
      if (block.rows.length) refusedByDay.set(block.day, (refusedByDay.get(block.day) ?? 0) + block.rows.length);
      continue;
    }
    for (const row of block.rows) {
      const target = { profileId: block.profileId, key: row.k, day: block.day, value: row.v, declared: row.m };
      if (block.scope === "day") dayRows.push({ ...target, kind: "" });
      else backfills.push(target);
    }
  }
  return { dayRows, backfills, refusedByDay };
}

/**
 * The pin of every key of these rows: the instance's known pins, and the others pinned now (a key
 * first seen takes its first row's declaration). `learned`: pins read from the database here.
 */
async function pinRowKeys(tx: Db, deps: IngestDeps, rows: Target[], now: number) {
  const firstDeclared = new Map<string, string | undefined>();
  for (const r of rows)
    if (!firstDeclared.has(r.key) || firstDeclared.get(r.key) === undefined) firstDeclared.set(r.key, r.declared);
  const unknown = [...firstDeclared].filter(([key]) => !deps.pins.has(key));
  const learned = await q.pinKeys(
    tx,
    unknown.map(([key, declared]) => firstPin(deps.catalogue, key, declared)),
    now,
  );
  const pinned = new Map<string, q.KeyPin>(learned.map((pin) => [pin.key, pin]));
  for (const key of firstDeclared.keys()) if (deps.pins.has(key)) pinned.set(key, deps.pins.get(key)!);
  return { learned, pinned };
}

/** Rows declaring another kind than their key's pin, or under the other scope: a warning per key and code, by key. */
function keyWarnings(catalogue: Catalogue, rows: Target[], pinned: Map<string, q.KeyPin>): Warning[] {
  const found = new Map<string, Warning>();
  for (const r of rows) {
    const pin = pinned.get(r.key)!;
    if (r.declared && r.declared !== pin.kind && !found.has(`kind/${r.key}`)) {
      found.set(`kind/${r.key}`, {
        code: "kind_mismatch",
        key: r.key,
        message: `declared ${r.declared}, but the key is pinned as ${pin.kind}; stored as ${pin.kind}`,
      });
    }
    const scope = catalogue.lookup(r.key)?.scope;
    if (scope && (scope === "account") !== (r.profileId === ACCOUNT_PROFILE) && !found.has(`scope/${r.key}`)) {
      found.set(`scope/${r.key}`, {
        code: "scope_mismatch",
        key: r.key,
        message: `the catalogue files this key under the ${scope} scope`,
      });
    }
  }
  return [...found.values()].sort((a, b) => (a.key! < b.key! ? -1 : a.key! > b.key! ? 1 : a.code < b.code ? -1 : 1));
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
async function writeCounters(
  tx: Db,
  uuid: string,
  env: Envelope,
  rows: ReturnType<typeof splitBlocks>,
  sealedBeforeDay: string,
  mark: AccountMark | null,
) {
  const { dayRows, backfills } = rows;
  const perKey = openDaysOnly(dayRows, mark);
  if (perKey !== null) {
    await q.upsertOpenDays(tx, uuid, env.client.install, env.sentAt, dayRows, perKey);
    await q.upsertBackfills(tx, uuid, env.client.install, env.sentAt, backfills);
    return;
  }
  const over = await q.upsertDays(tx, uuid, env.client.install, env.sentAt, dayRows).catch((error: unknown) => {
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
  await q.upsertBackfills(tx, uuid, env.client.install, env.sentAt, backfills);
}

/** Writes the kept sessions, timeline events and mirror sections; answers how many of each were written. */
async function writeActivity(tx: Db, uuid: string, env: Envelope, kept: Kept) {
  const { install } = env.client;
  const profileId = env.profile.id;
  const sessions = await q.upsertSessions(
    tx,
    uuid,
    install,
    kept.sessions.map((s) => ({ ...s, profileId })),
  );
  const events = await q.insertEvents(
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
    ? await q.upsertMirror(
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
async function finish(
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
  const noted = await q.finishUpload(
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

export async function ingest(deps: IngestDeps, uuid: string, env: Envelope): Promise<Answer> {
  const now = deps.clock.now();
  const contained = checkEnvelope(env, deps.catalogue, now, deps.config.ingestMaxRows);
  if (env.client.catalogue !== deps.catalogue.version) {
    deps.log.info("catalogue version mismatch", { client: env.client.catalogue, served: deps.catalogue.version });
  }

  let learned: q.KeyPin[] = [];
  let done: UploadDone | undefined;
  const answer = await deps.db.transaction(async (tx): Promise<Answer> => {
    const account = await requireAccount(tx, uuid);
    const duplicate = await claimBatch(tx, uuid, env, account, now);
    if (duplicate) return duplicate;

    const sealedBeforeDay = sealedBefore(account.zone, now);
    const off = new Set(contained.filter((c) => !account.consented.includes(c)));
    const kept = consentFilter(env, off, deps.catalogue);
    const dayBlocks = kept.blocks.filter((b) => b.scope === "day" && b.rows.length > 0).map((b) => b.day);
    const resealed = await resealedDays(tx, uuid, dayBlocks, sealedBeforeDay);
    const warnings = envelopeWarnings(env, account, deps, now);
    const sorted = splitBlocks(kept.blocks, sealedBeforeDay, resealed);
    // Rows of keys new to a profile past its cap are refused before any key is pinned.
    const max = deps.config.statsMaxKeysPerProfile;
    const counted = [...sorted.dayRows, ...sorted.backfills];
    // The mark as this upload finds it: read once the stats lock is held (claimBatch took it).
    const mark = counted.length > 0 ? await readMark(tx, uuid) : null;
    const cap = await capKeys(tx, uuid, max, counted, mark?.heldKeys ?? null);
    const overCap = new Map<string, number>();
    if (cap.count > 0) {
      const keep = <R extends { profileId: string; key: string; day: string }>(list: R[]) =>
        list.filter((r) => !cap.refuses(r) || (overCap.set(r.day, (overCap.get(r.day) ?? 0) + 1), false));
      sorted.dayRows = keep(sorted.dayRows);
      sorted.backfills = keep(sorted.backfills);
      warnings.push(keyCapWarning(cap, max));
    }
    const { dayRows, backfills, refusedByDay } = sorted;
    const pins = await pinRowKeys(tx, deps, [...dayRows, ...backfills], now);
    learned = pins.learned;
    const mismatches = keyWarnings(deps.catalogue, [...dayRows, ...backfills], pins.pinned);
    for (const r of dayRows) r.kind = pins.pinned.get(r.key)!.kind;

    await writeCounters(tx, uuid, env, sorted, sealedBeforeDay, mark);
    await keepHeldDigest(tx, uuid, cap);
    const written = await writeActivity(tx, uuid, env, kept);
    // The version a signed-in client runs, for bug intake (only one a report could name is kept).
    const version = env.client.modVersion;
    await markUpload(tx, uuid, now, isModVersion(version) ? version : null);
    // Release health: this install runs this version today (bug intake owns the count).
    await countInstall(tx, now, version, env.client.install);

    if (deps.afterUpload)
      done = {
        uuid,
        zone: account.zone,
        profile: env.profile,
        rows: [
          ...dayRows.map((r) => ({ profileId: r.profileId, key: r.key, day: r.day })),
          ...backfills.map((r) => ({ profileId: r.profileId, key: r.key, day: null })),
        ],
      };
    const answer: Answer = {
      sealedBeforeDay,
      catalogueVersion: deps.catalogue.version,
      duplicate: false,
      warnings: [...warnings, ...mismatches],
      dropped: { categories: contained.filter((c) => off.has(c)), rows: kept.dropped },
      refused: [
        ...[...refusedByDay].map(([day, rows]) => ({ day, code: "day_sealed" as const, rows })),
        ...[...overCap].map(([day, rows]) => ({ day, code: "too_many_keys" as const, rows })),
      ].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.code < b.code ? -1 : 1)),
      applied: { rows: dayRows.length + backfills.length, ...written },
    };
    await finish(
      tx,
      uuid,
      env,
      answer,
      kept,
      dayRows.length + backfills.length,
      deps.config.statsMaxProfilesPerAccount,
    );
    return answer;
  });
  for (const pin of learned) deps.pins.set(pin.key, pin);
  if (done && !answer.duplicate && done.rows.length > 0)
    await deps.afterUpload!(done).catch((error: unknown) =>
      deps.log.error("boards: keeping scores after an upload failed", { error: String(error) }),
    );
  return answer;
}
