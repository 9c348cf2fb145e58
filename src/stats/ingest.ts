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
import { ApiError, isOutOfRange } from "../http/errors.ts";
import { SAFE_LIMIT } from "./counters.table.ts";
import { requireAccount } from "../accounts/settings.ts";
import { markUpload, type Account } from "../accounts/accounts.query.ts";
import { ACCOUNT_PROFILE, type Envelope } from "../wire/envelope.ts";
import { checkEnvelope, namespaceOf } from "./ingest-checks.ts";
import type { IngestAnswer } from "./ingest.schema.ts";
import * as q from "./ingest.query.ts";
import { sealedBefore } from "./seal.ts";
import { markFor } from "./rollups.ts";

export type IngestDeps = {
  db: Db;
  clock: Clock;
  log: Log;
  catalogue: Catalogue;
  config: Pick<Config, "ingestMaxRows" | "clockSkewWarnMs">;
  /**
   * Pins already read from the database. A pin never changes once written (contract 2.3 rule 4),
   * so each instance may keep what it has seen; only committed pins are added.
   */
  pins: Map<string, q.KeyPin>;
};

type Answer = Static<typeof IngestAnswer>;
type Warning = Answer["warnings"][number];

/** Contract 4.1 and 8: the same batchId within 7 days is a duplicate. */
export const BATCH_WINDOW_MS = 7 * 86_400_000;

/** Kind, unit and category a key is pinned with the first time it arrives. */
function firstPin(catalogue: Catalogue, key: string, declared: string | undefined): q.KeyPin {
  const known = catalogue.lookup(key);
  if (known) return { key, kind: known.kind, unit: known.unit, category: known.category };
  // A key absent from the catalogue still uploads (2.2): its row's declaration, else a plain count.
  return { key, kind: declared ?? "count", unit: "count", category: catalogue.categoryOf.get(namespaceOf(key))! };
}

function envelopeWarnings(env: Envelope, account: Account, deps: IngestDeps, now: number): Warning[] {
  const warnings: Warning[] = [];
  if (Math.abs(env.sentAt - now) > deps.config.clockSkewWarnMs) {
    warnings.push({ code: "clock_skew", message: `sentAt is ${Math.round((env.sentAt - now) / 1000)} s from the service's clock; check the computer's clock` });
  }
  if (env.client.catalogue !== deps.catalogue.version) {
    warnings.push({ code: "catalogue_mismatch", message: `the client holds catalogue ${env.client.catalogue}; the service serves ${deps.catalogue.version}` });
  }
  if (env.zone.id !== account.zone) warnings.push({ code: "zone_mismatch", message: `days must be labelled in the account's zone ${account.zone}, not ${env.zone.id}` });
  if (env.settingsVersion !== account.settingsVersion) {
    warnings.push({ code: "settings_changed", message: `settings are at version ${account.settingsVersion}; fetch them again` });
  }
  return warnings;
}

/** Which payload items belong to a category that is off; they are dropped, and counted. */
function consentFilter(env: Envelope, off: Set<string>, catalogue: Catalogue) {
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
  return new ApiError("total_out_of_range", `${first.key}: a lifetime total would leave the safe integer range ±${SAFE_LIMIT}; nothing of this upload was stored`, "/counters");
}

export async function ingest(deps: IngestDeps, uuid: string, env: Envelope): Promise<Answer> {
  const now = deps.clock.now();
  const contained = checkEnvelope(env, deps.catalogue, now, deps.config.ingestMaxRows);
  if (env.client.catalogue !== deps.catalogue.version) {
    deps.log.info("catalogue version mismatch", { client: env.client.catalogue, served: deps.catalogue.version });
  }

  let learned: q.KeyPin[] = [];
  const answer = await deps.db.transaction(async (tx): Promise<Answer> => {
    const account = await requireAccount(tx, uuid);
    if (!(await q.lockAndClaimBatch(tx, uuid, env.batchId, now, now - BATCH_WINDOW_MS, markFor(account.zone, now)))) {
      const stored = await q.storedAnswer(tx, uuid, env.batchId);
      return { ...(JSON.parse(stored!) as Answer), duplicate: true };
    }

    const sealedBeforeDay = sealedBefore(account.zone, now);
    const off = new Set(contained.filter((c) => !account.consented.includes(c)));
    const kept = consentFilter(env, off, deps.catalogue);
    const warnings = envelopeWarnings(env, account, deps, now);

    const refusedByDay = new Map<string, number>();
    const dayRows: (q.DayRow & { declared?: string })[] = [];
    const backfills: (q.BackfillRow & { declared?: string })[] = [];
    for (const block of kept.blocks) {
      if (block.scope === "day" && block.day < sealedBeforeDay) {
        if (block.rows.length) refusedByDay.set(block.day, (refusedByDay.get(block.day) ?? 0) + block.rows.length);
        continue;
      }
      for (const row of block.rows) {
        const target = { profileId: block.profileId, key: row.k, day: block.day, value: row.v, declared: row.m };
        if (block.scope === "day") dayRows.push({ ...target, kind: "" });
        else backfills.push(target);
      }
    }

    const firstDeclared = new Map<string, string | undefined>();
    for (const r of [...dayRows, ...backfills]) if (!firstDeclared.has(r.key) || firstDeclared.get(r.key) === undefined) firstDeclared.set(r.key, r.declared);
    const unknown = [...firstDeclared].filter(([key]) => !deps.pins.has(key));
    learned = await q.pinKeys(tx, unknown.map(([key, declared]) => firstPin(deps.catalogue, key, declared)), now);
    const pinned = new Map<string, q.KeyPin>(learned.map((pin) => [pin.key, pin]));
    for (const key of firstDeclared.keys()) if (deps.pins.has(key)) pinned.set(key, deps.pins.get(key)!);
    const keyWarnings = new Map<string, Warning>();
    for (const r of [...dayRows, ...backfills]) {
      const pin = pinned.get(r.key)!;
      if (r.declared && r.declared !== pin.kind && !keyWarnings.has(`kind/${r.key}`)) {
        keyWarnings.set(`kind/${r.key}`, { code: "kind_mismatch", key: r.key, message: `declared ${r.declared}, but the key is pinned as ${pin.kind}; stored as ${pin.kind}` });
      }
      const scope = deps.catalogue.lookup(r.key)?.scope;
      if (scope && (scope === "account") !== (r.profileId === ACCOUNT_PROFILE) && !keyWarnings.has(`scope/${r.key}`)) {
        keyWarnings.set(`scope/${r.key}`, { code: "scope_mismatch", key: r.key, message: `the catalogue files this key under the ${scope} scope` });
      }
    }
    for (const r of dayRows) r.kind = pinned.get(r.key)!.kind;

    const over = await q.upsertDays(tx, uuid, env.client.install, env.sentAt, dayRows).catch((error: unknown) => {
      // The statement answers the keys it could not move; a check or bigint fault it did not
      // foresee (a total stored before the check existed) is the same refusal, not a 500.
      if (isOutOfRange(error)) throw new ApiError("total_out_of_range", `a lifetime total would leave the safe integer range ±${SAFE_LIMIT}; nothing of this upload was stored`, "/counters");
      throw error;
    });
    if (over.length > 0) throw outOfRange(env, sealedBeforeDay, over);
    await q.upsertBackfills(tx, uuid, env.client.install, env.sentAt, backfills);
    const sessions = await q.upsertSessions(
      tx,
      uuid,
      env.client.install,
      kept.sessions.map((s) => ({ ...s, profileId: env.profile.id })),
    );
    const events = await q.insertEvents(
      tx,
      uuid,
      env.client.install,
      kept.events.map((e) => ({ id: e.id, profileId: env.profile.id, kind: e.kind, day: e.day, at: e.at, key: e.key ?? null, value: e.value ?? null })),
    );
    const sections = env.mirror
      ? await q.upsertMirror(tx, uuid, env.profile.id, env.client.install, env.mirror.observedAt, kept.sections.map((s) => ({ section: s.name, values: s.values })))
      : 0;
    await markUpload(tx, uuid, now);

    const answer: Answer = {
      sealedBeforeDay,
      catalogueVersion: deps.catalogue.version,
      duplicate: false,
      warnings: [...warnings, ...[...keyWarnings.values()].sort((a, b) => (a.key! < b.key! ? -1 : a.key! > b.key! ? 1 : a.code < b.code ? -1 : 1))],
      dropped: { categories: contained.filter((c) => off.has(c)), rows: kept.dropped },
      refused: [...refusedByDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, rows]) => ({ day, code: "day_sealed" as const, rows })),
      applied: { rows: dayRows.length + backfills.length, sessions, events, sections },
    };
    // Statistics off stores nothing (1.1 rule 1): the profile is noted only when something was kept.
    const keptAny = dayRows.length + backfills.length + kept.sessions.length + kept.events.length + kept.sections.length > 0;
    await q.finishUpload(tx, uuid, env.batchId, JSON.stringify(answer), keptAny ? { profileId: env.profile.id, cuteName: env.profile.cuteName, sentAt: env.sentAt } : undefined);
    return answer;
  });
  for (const pin of learned) deps.pins.set(pin.key, pin);
  return answer;
}
