// What of an upload is kept, and what its answer says about it: the categories the account turned
// off (dropped), day blocks past the seal horizon (refused), each key's first pin, the warnings, and
// the refusal of a total that would leave the safe range. Plain functions, no database.
import type { Static } from "@sinclair/typebox";
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { SAFE_LIMIT } from "../wire/safe-integer.ts";
import type { Account } from "../accounts/accounts.ts";
import { ACCOUNT_PROFILE, type Envelope } from "../wire/envelope.ts";
import { namespaceOf } from "./ingest-checks.ts";
import type { IngestAnswer } from "./ingest.schema.ts";
import type { KeyPin } from "./ingest.query.ts";
import type { BackfillRow, DayRow } from "./ingest-days.query.ts";

export type Answer = Static<typeof IngestAnswer>;
export type Warning = Answer["warnings"][number];

/** Kind, unit and category a key is pinned with the first time it arrives. */
export function firstPin(catalogue: Catalogue, key: string, declared: string | undefined): KeyPin {
  const known = catalogue.lookup(key);
  if (known) return { key, kind: known.kind, unit: known.unit, category: known.category };
  // A key absent from the catalogue still uploads (2.2): its row's declaration, else a plain count.
  return { key, kind: declared ?? "count", unit: "count", category: catalogue.categoryOf.get(namespaceOf(key))! };
}

export function envelopeWarnings(
  env: Envelope,
  account: Account,
  deps: { config: Pick<Config, "clockSkewWarnMs">; catalogue: Catalogue },
  now: number,
): Warning[] {
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
export function consentFilter(env: Envelope, off: Set<string>, catalogue: Catalogue) {
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
export function outOfRange(
  env: Envelope,
  sealedBeforeDay: string,
  over: { profileId: string; key: string }[],
): ApiError {
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

export type Kept = ReturnType<typeof consentFilter>;
export type Target = { profileId: string; key: string; day: string; value: number; declared?: string };
export type DayTarget = DayRow & { declared?: string };

/** The kept blocks' day rows and backfills; a day block older than the seal horizon is refused, counted by day. */
export function splitBlocks(blocks: Kept["blocks"], sealedBeforeDay: string, resealed: Set<string>) {
  const refusedByDay = new Map<string, number>();
  const dayRows: DayTarget[] = [];
  const backfills: (BackfillRow & { declared?: string })[] = [];
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

/** The kept rows sorted by splitBlocks. */
export type Sorted = ReturnType<typeof splitBlocks>;

/** Rows declaring another kind than their key's pin, or under the other scope: a warning per key and code, by key. */
export function keyWarnings(catalogue: Catalogue, rows: Target[], pinned: Map<string, KeyPin>): Warning[] {
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
