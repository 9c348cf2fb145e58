// Ordering the mod's version strings (a problem's version range, "resolved in" and regressions).
// Semantic Versioning 2.0.0 precedence, made total for any string the report schema accepts
// (`[0-9A-Za-z][0-9A-Za-z.+_-]*`):
//   - build metadata (from the first "+") is ignored: 1.4.0+build.7 equals 1.4.0;
//   - the core is split on "." and compared part by part, numbers as numbers ("1.10.0" after
//     "1.9.2"), a missing part as 0 ("1.4" equals "1.4.0"), a non-numeric part after a number and
//     as text against another one;
//   - a pre-release (after the first "-" of the core) comes before its release: 1.4.0-beta.2 <
//     1.4.0-rc.1 < 1.4.0; its identifiers are compared one by one, numbers as numbers and before
//     words, a shorter list first when all else is equal (beta < beta.1 < beta.2 < beta.10).
// "_" is read like "-" (a loader suffix such as 1.4.0_fabric is a pre-release tag of 1.4.0).
const NUMERIC = /^\d+$/;

function parse(version: string): { core: string[]; pre: string[] } {
  const noBuild = version.split("+", 1)[0]!.replace(/_/g, "-");
  const dash = noBuild.indexOf("-");
  const core = (dash < 0 ? noBuild : noBuild.slice(0, dash)).split(".");
  const pre = dash < 0 ? [] : noBuild.slice(dash + 1).split(".");
  return { core, pre };
}

function compareIdentifier(x: string, y: string): number {
  const nx = NUMERIC.test(x);
  const ny = NUMERIC.test(y);
  if (nx && ny) {
    // Compared as numbers without a float's rounding: shorter (without leading zeros) is smaller.
    const a = x.replace(/^0+(?=\d)/, "");
    const b = y.replace(/^0+(?=\d)/, "");
    return a.length !== b.length ? Math.sign(a.length - b.length) : a < b ? -1 : a > b ? 1 : 0;
  }
  if (nx !== ny) return nx ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

export function compareVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  for (let i = 0; i < Math.max(pa.core.length, pb.core.length); i++) {
    const c = compareIdentifier(pa.core[i] ?? "0", pb.core[i] ?? "0");
    if (c !== 0) return c;
  }
  // A release is newer than any of its pre-releases.
  if (!pa.pre.length || !pb.pre.length) return pa.pre.length === pb.pre.length ? 0 : pa.pre.length ? -1 : 1;
  for (let i = 0; i < Math.max(pa.pre.length, pb.pre.length); i++) {
    const x = pa.pre[i];
    const y = pb.pre[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const c = compareIdentifier(x, y);
    if (c !== 0) return c;
  }
  return 0;
}

/** The most digits a number of a version may have (a date such as 20261130 fits; 10^20 does not). */
export const VERSION_NUMBER_DIGITS = 8;

/**
 * True when every number of the version's core and pre-release has at most VERSION_NUMBER_DIGITS
 * digits, leading zeros aside (build metadata, which orders nothing, may hold anything).
 */
export function plausibleVersion(version: string): boolean {
  const { core, pre } = parse(version);
  return [...core, ...pre].every(
    (part) => !NUMERIC.test(part) || part.replace(/^0+/, "").length <= VERSION_NUMBER_DIGITS,
  );
}

export const versionRange = (min: string, max: string) => (min === max ? min : `${min} – ${max}`);
