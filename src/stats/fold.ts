// The folded figures the statistics pages and the mod read. A lifetime figure is its baseline
// folded with every later day, and always says its baseline's date; a day figure is one day's.
// The API never passes one off as the other: they live in different fields and routes.
import type { Db } from "../db/database.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import { addDays } from "../wire/day.ts";
import { ACCOUNT_PROFILE } from "../wire/envelope.ts";
import { chartRows, dayRows, lifetimeRows, profilesOf, seriesRows, type LifetimeRow } from "./fold.query.ts";
import { refreshStaleRollups } from "./rollup.query.ts";
import { heldKeyCount } from "./key-cap.query.ts";
import { SAFE_LIMIT } from "../wire/safe-integer.ts";
import { distinctLabels, labelFromKey, readableSegment } from "./labels.ts";
import type { ItemNamer } from "../items/item-names.ts";

type Kind = "count" | "max" | "min" | "gauge";
/** Figures are folded as BigInt: a sum of baselines and days may pass 2^53 - 1, and must not round. */
type Dated = { day: string; value: bigint };

/** Folds figures of one key by its kind; a gauge keeps the latest-dated one. */
function combine(kind: Kind, parts: (Dated | null)[]): Dated | null {
  const present = parts.filter((p): p is Dated => p !== null);
  if (present.length === 0) return null;
  const day = present.reduce((d, p) => (p.day > d ? p.day : d), present[0]!.day);
  switch (kind) {
    case "count":
      return { day, value: present.reduce((n, p) => n + p.value, 0n) };
    case "max":
      return { day, value: present.reduce((m, p) => (p.value > m ? p.value : m), present[0]!.value) };
    case "min":
      return { day, value: present.reduce((m, p) => (p.value < m ? p.value : m), present[0]!.value) };
    case "gauge":
      return present.reduce((a, b) => (b.day >= a.day ? b : a));
  }
}

const LIMIT = BigInt(SAFE_LIMIT);
/**
 * A folded figure as a JSON number: within the safe integer range exactly; past it (only a sum of
 * baselines and days can get there, docs/decisions.md) the nearest end of the range, flagged.
 */
function answerable(value: bigint): { value: number; clamped: boolean } {
  if (value > LIMIT) return { value: SAFE_LIMIT, clamped: true };
  if (value < -LIMIT) return { value: -SAFE_LIMIT, clamped: true };
  return { value: Number(value), clamped: false };
}

/**
 * Label, group and icon of a key: the catalogue's, its placeholders filled in words (an item id by
 * the game's own item name when the item list has it), else a label made from the key that keeps
 * its namespace (labels.ts; issue 34).
 */
export function describeKey(catalogue: Catalogue, key: string, items?: ItemNamer) {
  const entry = catalogue.lookup(key);
  const namespace = key.slice(0, key.indexOf("."));
  if (!entry) {
    const known = catalogue.document.namespaces.find((n) => n.id === namespace)?.label;
    return { label: labelFromKey(key, known), group: known ?? namespace, icon: null as string | null };
  }
  let label = entry.label;
  if (entry.pattern) {
    const segments = key.split(".");
    entry.pattern.split(".").forEach((part, i) => {
      if (!/^\{[A-Z][A-Z0-9_]*\}$/.test(part)) return;
      const segment = segments[i]!;
      const words = (part === ITEM_PLACEHOLDER && items?.itemName(segment)) || readableSegment(segment);
      label = label.replaceAll(part, words);
    });
  }
  return { label, group: entry.group, icon: entry.icon ?? null };
}

/** The placeholder of an item id in the catalogue's patterns (loot.item.{ITEM_ID}). */
export const ITEM_PLACEHOLDER = "{ITEM_ID}";

/** The item a key counts, when its catalogue pattern names one (its picture comes through the image proxy). */
export function itemOfKey(catalogue: Catalogue, key: string): string | undefined {
  const pattern = catalogue.lookup(key)?.pattern;
  if (!pattern) return undefined;
  const i = pattern.split(".").indexOf(ITEM_PLACEHOLDER);
  return i < 0 ? undefined : key.split(".")[i];
}

function lifetimeOf(row: LifetimeRow) {
  const kind = row.kind as Kind;
  const dated = (day: string | null, value: unknown): Dated | null =>
    day === null ? null : { day, value: BigInt(value as string | number) };
  const backfill = dated(row.backfill_day, row.backfill_value);
  const seal = dated(row.seal_day, row.seal_value);
  const baseline = combine(kind, [backfill, seal]);
  const days = dated(row.last_day, row.days_value);
  const total = answerable(combine(kind, [baseline, days])!.value);
  const base = baseline && answerable(baseline.value);
  const plain = (d: Dated | null) => d && { day: d.day, value: answerable(d.value).value };
  return {
    value: total.value,
    /** Everything up to and including `day` is in `value` through this baseline (null: none). */
    baseline: baseline && { day: baseline.day, value: base!.value, backfill: plain(backfill), seal: plain(seal) },
    /** The first and last recorded day folded on top of the baseline. */
    days: days && { first: row.first_day!, last: row.last_day! },
    /** Present only when a figure here passed the safe integer range and answers its nearest end instead. */
    ...(total.clamped || base?.clamped ? { clamped: true as const } : {}),
  };
}

/** `items`: the game's item names, for labels of item keys (absent: ids in words). */
export type FoldDeps = { db: Db; catalogue: Catalogue; items?: ItemNamer };

/** Every key of one profile with its lifetime figure; `only`: that key or those keys alone (absent: every key). */
export async function keysWithLifetime(deps: FoldDeps, uuid: string, profileId: string, only?: string | string[]) {
  return distinctLabels(await lifetimeFigures(deps, uuid, profileId, only));
}

/**
 * keysWithLifetime's figures in key order (bytes) before labels that two keys share are told apart
 * (distinctLabels): a set read in parts (lifetime-memo.ts) is told apart once whole.
 */
export async function lifetimeFigures(deps: FoldDeps, uuid: string, profileId: string, only?: string | string[]) {
  await refreshStaleRollups(deps.db, uuid, profileId, only);
  const rows = await lifetimeRows(deps.db, uuid, profileId, only);
  return rows.map((row) => ({
    key: row.key,
    ...describeKey(deps.catalogue, row.key, deps.items),
    kind: row.kind,
    unit: row.unit,
    category: row.category,
    lifetime: lifetimeOf(row),
  }));
}

export async function listProfiles(db: Db, uuid: string) {
  return (await profilesOf(db, uuid)).map((p) => ({
    id: p.profile_id,
    cuteName: p.cute_name,
    firstSeenAt: Number(p.first_seen_at),
    lastSeenAt: Number(p.last_seen_at),
  }));
}

/** The profile last uploaded for (a page's default profile); null when the account holds none. */
export const latestProfile = <P extends { lastSeenAt: number }>(profiles: P[]): P | null =>
  profiles.reduce<P | null>((a, b) => (!a || b.lastSeenAt >= a.lastSeenAt ? b : a), null);

/**
 * The account's profiles as one short text that changes whenever they do (an upload for one, an
 * erasure that takes them all): part of the key of every copy of a page or badge kept for others.
 */
export const profilesState = (profiles: { lastSeenAt: number }[]) =>
  `${profiles.length}:${profiles.reduce((n, p) => Math.max(n, p.lastSeenAt), 0)}`;

/** Lifetime totals of every key of one profile, with the account scope alongside. */
export async function totals(deps: FoldDeps, uuid: string, profileId: string) {
  const profile = (await listProfiles(deps.db, uuid)).find((p) => p.id === profileId);
  return {
    catalogueVersion: deps.catalogue.version,
    profile: {
      id: profileId,
      cuteName: profile?.cuteName ?? null,
      keys: await keysWithLifetime(deps, uuid, profileId),
    },
    account: { id: ACCOUNT_PROFILE, keys: await keysWithLifetime(deps, uuid, ACCOUNT_PROFILE) },
  };
}

const dayValue = (r: { day: string; value: number; low: number | null; high: number | null; kind: string }) =>
  r.kind === "gauge"
    ? { day: r.day, value: Number(r.value), low: Number(r.low), high: Number(r.high) }
    : { day: r.day, value: Number(r.value) };

/** One key's daily series: one entry per observed day, gaps left out (never a zero). */
export async function series(deps: FoldDeps, uuid: string, profileId: string, key: string, from: string, to: string) {
  const rows = await seriesRows(deps.db, uuid, profileId, key, from, to);
  return {
    profileId,
    key,
    ...describeKey(deps.catalogue, key, deps.items),
    kind: rows[0]?.kind ?? null,
    from,
    to,
    days: rows.map(dayValue),
  };
}

/** Every key's value per observed day of a range. */
/**
 * About how many day values one answer of GET /v1/stats/days carries at most (issue 22): the range
 * is read a window of whole days at a time, as many days as this many values of every key the
 * profile holds, at least one day. A profile of 600 keys gets 83 days an answer; one at the
 * 10 000-key cap, 5. The answer says where the next window starts (`next`), null at the end.
 */
export const DAYS_ANSWER_VALUES = 50_000;

export async function perDay(
  deps: FoldDeps,
  uuid: string,
  profileId: string,
  from: string,
  to: string,
  maxValues = DAYS_ANSWER_VALUES,
) {
  const held = await heldKeyCount(deps.db, uuid, profileId);
  const last = [to, addDays(from, Math.max(1, Math.floor(maxValues / Math.max(1, held))) - 1)].sort()[0]!;
  const out: { day: string; values: { key: string; value: number; low?: number; high?: number }[] }[] = [];
  for (const r of await dayRows(deps.db, uuid, profileId, from, last)) {
    if (out.at(-1)?.day !== r.day) out.push({ day: r.day, values: [] });
    const { day: _day, ...value } = dayValue(r);
    out.at(-1)!.values.push({ key: r.key, ...value });
  }
  return { profileId, from, to: last, next: last < to ? addDays(last, 1) : null, days: out };
}

/**
 * What the statistics page's charts draw for each of `profileIds`: per key, its observed days of
 * the range with each day's folded value (the same values as perDay, a gauge's low and high too), in one read.
 */
export async function chartSeries(
  deps: FoldDeps,
  uuid: string,
  profileIds: string[],
  from: string,
  to: string,
  keys?: string[],
) {
  type Point = { day: string; value: number; low?: number; high?: number };
  const out = new Map<string, Map<string, Point[]>>(profileIds.map((id) => [id, new Map()]));
  for (const r of await chartRows(deps.db, uuid, profileIds, from, to, keys)) {
    const { day_lows: lows, day_highs: highs } = r;
    out.get(r.profile_id)?.set(
      r.key,
      r.days.map((day, i) =>
        lows && highs
          ? { day, value: Number(r.day_values[i]), low: Number(lows[i]), high: Number(highs[i]) }
          : { day, value: Number(r.day_values[i]) },
      ),
    );
  }
  return out;
}
