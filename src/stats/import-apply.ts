// One batch of an import written (pass 2 of import.ts): rows of a category the account has off
// dropped and rows on a day the account already holds sealed refused (as ingest drops and refuses
// them), the batch's keys pinned (a key first seen here takes the file's kind; a kind differing
// from the pin is a warning, as in ingest), then the rows merged by their section's rule, and
// everything counted.
import type { Db } from "../db/database.ts";
import type { Account } from "../accounts/accounts.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import { namespaceOf } from "./ingest-checks.ts";
import { firstPin } from "./ingest-kept.ts";
import { pinKeys, type KeyPin } from "./ingest.query.ts";
import type { ImportRow, Section } from "./import-format.ts";
import * as q from "./import.query.ts";

/** Counts of one kind of row: added, replaced (an older stored copy), skipped (the stored copy is as new), refused. */
type Counts = { added: number; replaced: number; skipped: number; refused: number };
const zero = (): Counts => ({ added: 0, replaced: 0, skipped: 0, refused: 0 });
type Kind = "profiles" | "counterRows" | "baselines" | "sessions" | "events" | "mirrorSections";
const kindOf: Record<Section, Kind> = {
  profiles: "profiles",
  dayRows: "counterRows",
  backfills: "baselines",
  seals: "baselines",
  sessions: "sessions",
  timelineEvents: "events",
  mirrorSections: "mirrorSections",
};
type Warning = { code: string; message: string; key?: string };
/** Warnings an answer names at most (the first, in file order). */
const MAX_WARNINGS = 100;

export type Tally = {
  counts: Record<Kind, Counts>;
  warnings: Warning[];
  refused(): { code: "day_sealed" | "category_off"; rows: number }[];
  consented: Set<string>;
  sealed: { days: Set<string>; through: string | null };
  byCode: { day_sealed: number; category_off: number };
  pins: Map<string, KeyPin>;
  warned: Set<string>;
  /**
   * The counters the import wrote, for the boards (afterUpload): by profile, each key's days, a day
   * before `recentFrom` kept as null (it lies in no window a board still ranks, so it moves only
   * the lifetime figure, as a baseline does): a key holds at most RECENT_DAYS days, whatever the file's length.
   */
  touched: Map<string, Map<string, Set<string | null>>>;
  recentFrom: string;
};

/**
 * Days back from the account's today that a board's open windows can reach: a month (31 days) and
 * the grace day after it, with a margin; an older day counts for the boards only in all time.
 */
export const RECENT_DAYS = 40;

export function emptyTally(account: Account, sealed: Tally["sealed"], recentFrom: string): Tally {
  const byCode = { day_sealed: 0, category_off: 0 };
  return {
    counts: {
      profiles: zero(),
      counterRows: zero(),
      baselines: zero(),
      sessions: zero(),
      events: zero(),
      mirrorSections: zero(),
    },
    warnings: [],
    refused: () =>
      (["category_off", "day_sealed"] as const)
        .filter((c) => byCode[c] > 0)
        .map((code) => ({ code, rows: byCode[code] })),
    consented: new Set(account.consented),
    sealed,
    byCode,
    pins: new Map(),
    warned: new Set(),
    touched: new Map(),
    recentFrom,
  };
}

/** Notes the counter rows written for the boards (day rows by their day, baselines as null). */
function touch(tally: Tally, section: Section, rows: Any[]) {
  if (section !== "dayRows" && section !== "backfills" && section !== "seals") return;
  for (const r of rows) {
    const profile = String(r.profileId);
    const keys = tally.touched.get(profile) ?? new Map<string, Set<string | null>>();
    tally.touched.set(profile, keys);
    const days = keys.get(String(r.key)) ?? new Set<string | null>();
    keys.set(String(r.key), days);
    days.add(section === "dayRows" && String(r.day) >= tally.recentFrom ? String(r.day) : null);
  }
}

type Deps = { catalogue: Catalogue };
type Any = Record<string, unknown>;

/** The keys a row counts under (for consent). */
function keysOf(row: Any): string[] {
  const keys: string[] = [];
  if (typeof row.key === "string") keys.push(row.key);
  for (const list of ["gains", "costs", "values"])
    for (const a of (row[list] as { k: string }[] | undefined) ?? []) keys.push(a.k);
  return keys;
}

/** Why a row is not taken: a category the account has off, or a day it holds sealed; null: taken. */
function refusal(deps: Deps, tally: Tally, section: Section, row: Any): "category_off" | "day_sealed" | null {
  for (const key of keysOf(row))
    if (!tally.consented.has(deps.catalogue.categoryOf.get(namespaceOf(key))!)) return "category_off";
  if (section === "dayRows") {
    const day = row.day as string;
    const { days, through } = tally.sealed;
    if (days.has(day) || (through !== null && day <= through)) return "day_sealed";
  }
  return null;
}

/** Pins the batch's keys not pinned yet in this import, and warns of a kind differing from its pin. */
async function pinBatch(tx: Db, deps: Deps, tally: Tally, rows: { key: string; kind: string }[], now: number) {
  const wanted = new Map<string, KeyPin>();
  for (const r of rows)
    if (!tally.pins.has(r.key) && !wanted.has(r.key)) wanted.set(r.key, firstPin(deps.catalogue, r.key, r.kind));
  for (const pin of await pinKeys(tx, [...wanted.values()], now)) tally.pins.set(pin.key, pin);
  for (const r of rows) {
    const pin = tally.pins.get(r.key)!;
    if (r.kind === pin.kind || tally.warned.has(r.key)) continue;
    tally.warned.add(r.key);
    if (tally.warnings.length < MAX_WARNINGS)
      tally.warnings.push({
        code: "kind_mismatch",
        key: r.key,
        message: `the file says ${r.kind}, but the key is pinned as ${pin.kind} here; folded as ${pin.kind}`,
      });
  }
}

/** The batch without a second copy of a row (same primary key): the first copy is kept. */
function unique<T>(rows: T[], id: (row: T) => string): T[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = id(r);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const ids: Record<Section, (r: Any) => string> = {
  profiles: (r) => String(r.profileId),
  dayRows: (r) => `${r.profileId}\t${r.key}\t${r.day}\t${r.installId}`,
  backfills: (r) => `${r.profileId}\t${r.key}\t${r.installId}`,
  seals: (r) => `${r.profileId}\t${r.key}`,
  sessions: (r) => String(r.id),
  timelineEvents: (r) => String(r.id),
  mirrorSections: (r) => `${r.profileId}\t${r.section}`,
};

const writers: { [S in Section]: (tx: Db, uuid: string, rows: ImportRow<S>[]) => Promise<q.Written> } = {
  profiles: q.upsertProfiles,
  dayRows: q.upsertDayRows,
  backfills: q.upsertBackfills,
  seals: q.upsertSeals,
  sessions: q.upsertSessions,
  timelineEvents: q.insertEvents,
  mirrorSections: q.upsertMirror,
};

export async function applyBatch(
  tx: Db,
  deps: Deps,
  uuid: string,
  tally: Tally,
  section: Section,
  batch: ImportRow<Section>[],
  now: number,
) {
  const counts = tally.counts[kindOf[section]];
  const kept: Any[] = [];
  for (const row of batch as Any[]) {
    const why = section === "profiles" ? null : refusal(deps, tally, section, row);
    if (why) {
      counts.refused++;
      tally.byCode[why]++;
    } else kept.push(row);
  }
  const rows = unique(kept, ids[section]);
  counts.skipped += kept.length - rows.length;
  if (rows.length === 0) return;
  if (section === "dayRows" || section === "backfills" || section === "seals")
    await pinBatch(tx, deps, tally, rows as { key: string; kind: string }[], now);
  const written = await (writers[section] as (tx: Db, uuid: string, rows: Any[]) => Promise<q.Written>)(tx, uuid, rows);
  counts.added += written.added;
  counts.replaced += written.replaced;
  if (written.added + written.replaced > 0) touch(tally, section, rows);
  counts.skipped += rows.length - written.added - written.replaced;
}
