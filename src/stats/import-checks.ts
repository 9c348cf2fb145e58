// The checks an import makes of each row of an export file, before anything is written: the rules
// ingest keeps for an upload (ingest-checks.ts), row by row, with the JSON path of the first fault:
// the row's shape (unknown fields refused, safe integers), the denylist over every string, the
// catalogue's namespaces, profile names and mirror sections, the days, and the key cap.
import type { Catalogue } from "../catalogue/catalogue.ts";
import { ApiError } from "../http/errors.ts";
import { findDenylisted } from "../privacy/denylist.ts";
import { dayFault, latestDay, utcDay } from "../wire/day.ts";
import { ACCOUNT_PROFILE } from "../wire/envelope.ts";
import { namespaceOf } from "./ingest-checks.ts";
import { rowCheckers, type ImportRow, type Section } from "./import-format.ts";

/** Fields of a row that are identifiers: the denylist does not read them (as isIdentifierPath for an upload). */
const isIdentifier = (path: string) => path === "/profileId" || path === "/installId" || path === "/id";

type Amount = { k: string; v: number };
/** Sections whose rows may name the all-zero account scope (an upload's counter blocks may). */
const ACCOUNT_SCOPED = new Set<Section>(["dayRows", "backfills", "seals"]);

/** Every counter key a row names, with its path in the row. */
function* keysOf(row: Record<string, unknown>): Generator<[string, string]> {
  if (typeof row.key === "string") yield [row.key, "/key"];
  for (const list of ["gains", "costs", "values"] as const) {
    const amounts = row[list] as Amount[] | undefined;
    if (amounts) for (let j = 0; j < amounts.length; j++) yield [amounts[j]!.k, `/${list}/${j}/k`];
  }
}

export type RowChecks = {
  /** Checks one row; answers it typed, or throws the refusal naming its path. */
  check<S extends Section>(section: S, index: number, value: unknown): ImportRow<S>;
  /** The category of each key's namespace (checked known). */
  categoryOf(key: string): string;
};

/**
 * The checks of one file, with what they remember across rows: the profiles the file lists and the
 * distinct keys of each (for the key cap), bounded by the caps themselves.
 */
export function rowChecks(
  catalogue: Catalogue,
  now: number,
  caps: { maxKeysPerProfile: number; maxProfiles: number; unknownWords?: boolean },
): RowChecks {
  const latest = latestDay(now);
  const cuteNames = new Set(catalogue.list("cuteNames"));
  const sections = new Set(catalogue.document.mirrorSections.map((m) => m.id));
  const profiles = new Set<string>();
  const keysByProfile = new Map<string, Set<string>>();
  const at = (section: Section, index: number, path = "") => `/${section}/${index}${path}`;

  function check<S extends Section>(section: S, index: number, value: unknown): ImportRow<S> {
    const checker = rowCheckers[section];
    if (!checker.Check(value)) {
      const first = checker.Errors(value).First();
      throw new ApiError(
        "invalid_body",
        `${at(section, index, first?.path ?? "")}: ${first?.message ?? "not a row of this section"}`,
        at(section, index, first?.path ?? ""),
      );
    }
    const row = value as ImportRow<S> & Record<string, unknown>;
    const denied = findDenylisted(row, isIdentifier, { unknownWords: caps.unknownWords });
    if (denied)
      throw new ApiError(
        "denylisted_string",
        `a string has the shape of a player name in game text (${denied.rule}); the service stores nothing about other players`,
        at(section, index, denied.path),
      );
    for (const [key, path] of keysOf(row))
      if (!catalogue.categoryOf.has(namespaceOf(key)))
        throw new ApiError(
          "unknown_namespace",
          `namespace ${JSON.stringify(namespaceOf(key))} is not in catalogue ${catalogue.version}`,
          at(section, index, path),
        );
    if (typeof row.day === "string") {
      const fault = dayFault(row.day);
      if (fault)
        throw new ApiError("invalid_body", `${at(section, index, "/day")}: ${fault}`, at(section, index, "/day"));
      if (row.day > latest)
        throw new ApiError(
          "day_too_far_ahead",
          `${row.day} is more than one day ahead of the service's day (${utcDay(now)} UTC)`,
          at(section, index, "/day"),
        );
    }
    const profileId = row.profileId as string;
    if (section === "profiles") {
      if (profileId === ACCOUNT_PROFILE || (cuteNames.size > 0 && !cuteNames.has(row.cuteName as string)))
        throw new ApiError(
          "unknown_cute_name",
          "cuteName is not one of the profile names the catalogue lists",
          at(section, index, "/cuteName"),
        );
      profiles.add(profileId);
      if (profiles.size > caps.maxProfiles)
        throw new ApiError(
          "too_many_profiles",
          `an account's statistics hold at most ${caps.maxProfiles} profiles (STATS_MAX_PROFILES_PER_ACCOUNT); nothing of this file was stored`,
          at(section, index, "/profileId"),
        );
      return row;
    }
    // An upload's sessions, events and mirror belong to its profile, never the all-zero account scope.
    if (profileId === ACCOUNT_PROFILE && !ACCOUNT_SCOPED.has(section))
      throw new ApiError(
        "profile_mismatch",
        "sessions, timeline events and mirror sections belong to a profile; the all-zero id is the account's",
        at(section, index, "/profileId"),
      );
    if (profileId !== ACCOUNT_PROFILE && !profiles.has(profileId))
      throw new ApiError(
        "profile_mismatch",
        "a row names a profile the file's profiles section does not list (or lists after it)",
        at(section, index, "/profileId"),
      );
    if (section === "mirrorSections" && !sections.has(row.section as string))
      throw new ApiError(
        "unknown_mirror_section",
        `mirror section ${JSON.stringify(row.section)} is not in catalogue ${catalogue.version}`,
        at(section, index, "/section"),
      );
    if (section === "dayRows" || section === "backfills" || section === "seals") {
      let keys = keysByProfile.get(profileId);
      if (!keys) keysByProfile.set(profileId, (keys = new Set()));
      keys.add(row.key as string);
      if (keys.size > caps.maxKeysPerProfile)
        throw new ApiError(
          "too_many_keys",
          `a profile holds at most ${caps.maxKeysPerProfile} distinct keys (STATS_MAX_KEYS_PER_PROFILE) and this file names more; nothing of it was stored`,
          at(section, index, "/key"),
        );
    }
    return row;
  }

  return { check, categoryOf: (key) => catalogue.categoryOf.get(namespaceOf(key))! };
}
