// POST /v1/stats/ingest: one envelope, applied in one transaction under one batchId (contract 4.1).
// Order: the rules that refuse a whole upload; then, in the transaction, the batchId (a duplicate
// answers the stored answer and applies nothing), rows of categories the account turned off
// (dropped), day rows older than the seal horizon (refused day_sealed), key pinning, the writes.
// What is kept is decided in ingest-kept.ts; the writes are in ingest-writes.ts.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Log } from "../log.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { Config } from "../config.ts";
import { markUpload, requireAccount } from "../accounts/accounts.ts";
import type { Envelope } from "../wire/envelope.ts";
import { isModVersion } from "../wire/mod-version.ts";
import { checkEnvelope } from "./ingest-checks.ts";
import type { KeyPin } from "./ingest.query.ts";
import { sealedBefore } from "./horizons.ts";
import { resealedDays } from "./seal.ts";
import { capKeys, keyCapWarning, keepHeldDigest } from "./key-cap.ts";
import { readMark } from "./counters.query.ts";
import { countInstall } from "../reports/release-health.ts";
import { consentFilter, envelopeWarnings, keyWarnings, splitBlocks, type Answer } from "./ingest-kept.ts";
import { claimBatch, finish, pinRowKeys, writeActivity, writeCounters } from "./ingest-writes.ts";
import type { Written } from "./lifetime-memo.ts";

/** Each profile's keys among these rows. */
function keysByProfile(rows: { profileId: string; key: string }[]): Written {
  const keys = new Map<string, Set<string>>();
  for (const r of rows) {
    const set = keys.get(r.profileId);
    if (set) set.add(r.key);
    else keys.set(r.profileId, new Set([r.key]));
  }
  return keys;
}

export type IngestDeps = {
  db: Db;
  clock: Clock;
  log: Log;
  catalogue: Catalogue;
  config: Pick<
    Config,
    | "ingestMaxRows"
    | "clockSkewWarnMs"
    | "statsMaxKeysPerProfile"
    | "statsMaxProfilesPerAccount"
    | "privacyUnknownWords"
  >;
  /**
   * Pins already read from the database. A pin never changes once written (contract 2.3 rule 4),
   * so each instance may keep what it has seen; only committed pins are added.
   */
  pins: Map<string, KeyPin>;
  /**
   * Called once an upload has committed (not for a duplicate), with what it wrote: the boards keep
   * their scores from it (issue 35). Set by createApp, so stats imports nothing of boards; a fault
   * in it is logged, never the upload's.
   */
  afterUpload?: (upload: UploadDone) => Promise<void>;
  /** Told, inside the upload's transaction, which keys of which profiles it writes (the pages' memo of lifetime figures). */
  wrote?: (uuid: string, written: Written) => void;
};

/** What a committed upload wrote: the account's zone, its profile, and each row's key and day (null: a backfill). */
export type UploadDone = {
  uuid: string;
  zone: string;
  profile: { id: string; cuteName: string };
  rows: { profileId: string; key: string; day: string | null }[];
};

export async function ingest(deps: IngestDeps, uuid: string, env: Envelope): Promise<Answer> {
  const now = deps.clock.now();
  const contained = checkEnvelope(env, deps.catalogue, now, deps.config.ingestMaxRows, {
    unknownWords: deps.config.privacyUnknownWords,
  });
  if (env.client.catalogue !== deps.catalogue.version) {
    deps.log.info("catalogue version mismatch", { client: env.client.catalogue, served: deps.catalogue.version });
  }

  let learned: KeyPin[] = [];
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
    deps.wrote?.(uuid, keysByProfile([...dayRows, ...backfills]));
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
