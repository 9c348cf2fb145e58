// The rules an upload must keep before anything is written (contract 2.1–2.5, 7, 8). Each broken
// rule refuses the whole upload with its code and the JSON path of the first fault; nothing is
// stored. Pure functions of the envelope, the catalogue and the service's UTC day.
import type { Catalogue } from "../catalogue/catalogue.ts";
import { ApiError } from "../http/errors.ts";
import { type DenylistOptions, findDenylisted } from "../privacy/denylist.ts";
import { dayFault, latestDay, utcDay } from "../wire/day.ts";
import { ACCOUNT_PROFILE, isIdentifierPath, type Envelope } from "../wire/envelope.ts";

/**
 * Every key the upload carries, with the JSON path it sits at (a function: a clean upload of
 * thousands of rows spells out none).
 */
function* keysOf(env: Envelope): Generator<[key: string, path: () => string]> {
  const counters = env.counters ?? [];
  for (let b = 0; b < counters.length; b++) {
    const rows = counters[b]!.rows;
    for (let r = 0; r < rows.length; r++) yield [rows[r]!.k, () => `/counters/${b}/rows/${r}/k`];
  }
  for (const [i, s] of (env.sessions ?? []).entries()) {
    for (const [j, a] of s.gains.entries()) yield [a.k, () => `/sessions/${i}/gains/${j}/k`];
    for (const [j, a] of s.costs.entries()) yield [a.k, () => `/sessions/${i}/costs/${j}/k`];
  }
  for (const [i, e] of (env.timeline ?? []).entries()) if (e.key) yield [e.key, () => `/timeline/${i}/key`];
  for (const [i, section] of (env.mirror?.sections ?? []).entries())
    for (const [j, a] of section.values.entries()) yield [a.k, () => `/mirror/sections/${i}/values/${j}/k`];
}

export const namespaceOf = (key: string) => key.slice(0, key.indexOf("."));

function* daysOf(env: Envelope): Generator<[day: string, path: string]> {
  for (const [b, block] of (env.counters ?? []).entries()) yield [block.day, `/counters/${b}/day`];
  for (const [i, s] of (env.sessions ?? []).entries()) yield [s.day, `/sessions/${i}/day`];
  for (const [i, e] of (env.timeline ?? []).entries()) yield [e.day, `/timeline/${i}/day`];
}

function carriesNothing(env: Envelope): boolean {
  const rows = (env.counters ?? []).reduce((n, b) => n + b.rows.length, 0);
  const mirrorValues = (env.mirror?.sections ?? []).length;
  return rows === 0 && (env.sessions ?? []).length === 0 && (env.timeline ?? []).length === 0 && mirrorValues === 0;
}

function firstDuplicate<T>(items: T[], keyOf: (item: T) => string): number {
  const seen = new Set<string>();
  for (const [i, item] of items.entries()) {
    const k = keyOf(item);
    if (seen.has(k)) return i;
    seen.add(k);
  }
  return -1;
}

/**
 * Checks every rule that refuses a whole upload (`privacy`: the denylist's structure-free layer,
 * PRIVACY_UNKNOWN_WORDS). Answers the categories the payload contains,
 * in catalogue order (the envelope's `categories` has been checked to name exactly these).
 */
export function checkEnvelope(
  env: Envelope,
  catalogue: Catalogue,
  now: number,
  maxRows: number,
  privacy: DenylistOptions = {},
): string[] {
  const denied = findDenylisted(env, isIdentifierPath, privacy);
  if (denied)
    throw new ApiError(
      "denylisted_string",
      `a string has the shape of a player name in game text (${denied.rule}); the service stores nothing about other players`,
      denied.path,
    );

  if (carriesNothing(env))
    throw new ApiError(
      "empty_upload",
      "the upload carries nothing: no counter rows, sessions, timeline events or mirror sections",
    );

  const rowCount = (env.counters ?? []).reduce((n, b) => n + b.rows.length, 0);
  if (rowCount > maxRows)
    throw new ApiError(
      "too_many_rows",
      `an upload carries at most ${maxRows} counter rows (this one: ${rowCount}); send the rest in another upload`,
      "/counters",
    );

  if (env.profile.id === ACCOUNT_PROFILE)
    throw new ApiError(
      "profile_mismatch",
      "profile.id names a game-mode profile; the all-zero id is reserved for the account",
      "/profile/id",
    );
  for (const [b, block] of (env.counters ?? []).entries()) {
    if (block.profileId !== env.profile.id && block.profileId !== ACCOUNT_PROFILE) {
      throw new ApiError(
        "profile_mismatch",
        "one upload covers one profile (profile.id) and the all-zero account scope",
        `/counters/${b}/profileId`,
      );
    }
  }
  const cuteNames = catalogue.list("cuteNames");
  if (cuteNames.length > 0 && !cuteNames.includes(env.profile.cuteName)) {
    throw new ApiError(
      "unknown_cute_name",
      "cuteName is not one of the profile names the catalogue lists",
      "/profile/cuteName",
    );
  }

  const latest = latestDay(now);
  for (const [day, path] of daysOf(env)) {
    const fault = dayFault(day);
    if (fault) throw new ApiError("invalid_body", `${path}: ${fault}`, path);
    if (day > latest)
      throw new ApiError(
        "day_too_far_ahead",
        `${day} is more than one day ahead of the service's day (${utcDay(now)} UTC)`,
        path,
      );
  }

  const present = new Set<string>();
  for (const [key, path] of keysOf(env)) {
    const category = catalogue.categoryOf.get(namespaceOf(key));
    if (!category)
      throw new ApiError(
        "unknown_namespace",
        `namespace ${JSON.stringify(namespaceOf(key))} is not in catalogue ${catalogue.version}`,
        path(),
      );
    present.add(category);
  }

  for (const [b, block] of (env.counters ?? []).entries()) {
    const dup = firstDuplicate(block.rows, (r) => r.k);
    if (dup >= 0)
      throw new ApiError("duplicate_row", "a key appears twice in one block", `/counters/${b}/rows/${dup}/k`);
  }
  const blockDup = firstDuplicate(env.counters ?? [], (b) => `${b.profileId}/${b.scope}/${b.day}`);
  if (blockDup >= 0)
    throw new ApiError(
      "duplicate_row",
      "two blocks name the same profileId, scope and day; send one",
      `/counters/${blockDup}`,
    );
  const sessionDup = firstDuplicate(env.sessions ?? [], (s) => s.id);
  if (sessionDup >= 0) throw new ApiError("duplicate_row", "a session id appears twice", `/sessions/${sessionDup}/id`);
  const sections = env.mirror?.sections ?? [];
  const sectionDup = firstDuplicate(sections, (s) => s.name);
  if (sectionDup >= 0)
    throw new ApiError("duplicate_row", "a mirror section appears twice", `/mirror/sections/${sectionDup}/name`);
  const knownSections = new Set(catalogue.document.mirrorSections.map((m) => m.id));
  for (const [i, s] of sections.entries()) {
    if (!knownSections.has(s.name))
      throw new ApiError(
        "unknown_mirror_section",
        `mirror section ${JSON.stringify(s.name)} is not in catalogue ${catalogue.version}`,
        `/mirror/sections/${i}/name`,
      );
  }

  const contained = catalogue.categories.filter((c) => present.has(c));
  const named = new Set(env.categories);
  const missing = contained.filter((c) => !named.has(c));
  const extra = [...named].filter((c) => !present.has(c));
  if (missing.length || extra.length || named.size !== env.categories.length) {
    const parts = [
      missing.length ? `missing ${missing.join(", ")}` : "",
      extra.length ? `not in the payload ${extra.join(", ")}` : "",
      named.size !== env.categories.length ? "named twice" : "",
    ];
    throw new ApiError(
      "categories_mismatch",
      `categories must name exactly the categories the payload contains (${contained.join(", ") || "none"}): ${parts.filter(Boolean).join("; ")}`,
      "/categories",
    );
  }
  return contained;
}
