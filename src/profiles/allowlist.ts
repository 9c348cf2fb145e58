// THE allowlist: every field of the profile document, and where in the game API's answer it comes
// from. Nothing else of the upstream answer is kept, cached or answered; a field that is missing or
// of another type is left out (absent, never null, never zero: contract 1.2). `{member}` is the
// looked-up player's own entry under `members`: of other members, only whether they are still on
// the profile is read (contract 1.1).
// The paths are those of the real v2 answers (test/support/recorded/, each field asserted against
// a recorded body in test/profiles/recorded.test.ts). A member who left the profile keeps an entry
// with `profile.deletion_notice`; an invited player who has not accepted has one with
// `profile.coop_invitation.confirmed: false`. Neither is a member: they are not counted, and a
// profile on which the looked-up player is only one of them is not that player's profile.
import { Type as T, type Static } from "@sinclair/typebox";

const SAFE = Number.MAX_SAFE_INTEGER;

/** A member entry of someone still on the profile: not gone (deletion notice), not only invited. */
function isCurrentMember(entry: unknown): boolean {
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) return false;
  const profile = (entry as { profile?: unknown }).profile;
  if (!profile || typeof profile !== "object") return true; // nothing says otherwise
  const p = profile as { deletion_notice?: unknown; coop_invitation?: { confirmed?: unknown } | null };
  if (p.deletion_notice !== undefined && p.deletion_notice !== null) return false;
  return !(p.coop_invitation && typeof p.coop_invitation === "object" && p.coop_invitation.confirmed === false);
}

/** How a raw value becomes a wire value; undefined drops the field. */
const as = {
  /** A 32-hex id, dashed or not, answered undashed lower-case (contract 1.2). */
  id: (v: unknown) =>
    typeof v === "string" && /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/.test(v)
      ? v.replaceAll("-", "").toLowerCase()
      : undefined,
  /** A display name the platform hands out (cute names are one word of letters). */
  word: (v: unknown) => (typeof v === "string" && /^[A-Za-z][A-Za-z_]{0,31}$/.test(v) ? v : undefined),
  bool: (v: unknown) => (typeof v === "boolean" ? v : undefined),
  /** A non-negative integer (timestamps, experience, counts), truncated if the upstream sent a fraction. */
  int: (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= SAFE ? Math.trunc(v) : undefined),
  /** Whole coins, truncated toward zero (contract 1.2). */
  coins: (v: unknown) =>
    typeof v === "number" && Number.isFinite(v) && Math.abs(v) <= SAFE ? Math.trunc(v) || 0 : undefined,
  /** How many current members a `members` object holds. */
  members: (v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.values(v).filter(isCurrentMember).length : undefined,
} as const;

export const PROFILE_FIELDS = [
  { field: "profileId", from: "profile_id", as: "id" },
  { field: "cuteName", from: "cute_name", as: "word" },
  { field: "selected", from: "selected", as: "bool" },
  { field: "gameMode", from: "game_mode", as: "word" },
  { field: "memberCount", from: "members", as: "members" },
  { field: "bankBalance", from: "banking.balance", as: "coins" },
  { field: "firstJoin", from: "members.{member}.profile.first_join", as: "int" },
  { field: "skyblockXp", from: "members.{member}.leveling.experience", as: "int" },
  { field: "purse", from: "members.{member}.currencies.coin_purse", as: "coins" },
  { field: "fairySouls", from: "members.{member}.fairy_soul.total_collected", as: "int" },
] as const satisfies readonly { field: string; from: string; as: keyof typeof as }[];

/** Most profiles kept per player (the platform allows a handful; this bounds a hostile answer). */
export const MAX_PROFILES = 32;

const Int = T.Integer({ minimum: 0, maximum: SAFE });
export const ProfileEntry = T.Object(
  {
    profileId: T.String({ pattern: "^[0-9a-f]{32}$", maxLength: 32 }),
    cuteName: T.Optional(T.String({ maxLength: 32 })),
    selected: T.Optional(T.Boolean()),
    gameMode: T.Optional(T.String({ maxLength: 32 })),
    memberCount: T.Optional(Int),
    bankBalance: T.Optional(T.Integer({ minimum: -SAFE, maximum: SAFE })),
    firstJoin: T.Optional(Int),
    skyblockXp: T.Optional(Int),
    purse: T.Optional(T.Integer({ minimum: -SAFE, maximum: SAFE })),
    fairySouls: T.Optional(Int),
  },
  { additionalProperties: false },
);
export type ProfileEntry = Static<typeof ProfileEntry>;

function pick(source: unknown, path: string, member: string): unknown {
  let v = source;
  for (const step of path.split(".")) {
    if (!v || typeof v !== "object" || Array.isArray(v)) return undefined;
    const key = step === "{member}" ? member : step;
    if (!Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** The allowlisted entries of the upstream's `profiles` (null: a player without profiles). */
export function allowlistProfiles(raw: unknown[] | null, uuid: string): ProfileEntry[] {
  const out: ProfileEntry[] = [];
  for (const profile of raw ?? []) {
    if (!isCurrentMember(pick(profile, "members.{member}", uuid))) continue; // invited only, or gone
    const entry: Record<string, unknown> = {};
    for (const f of PROFILE_FIELDS) {
      const value = as[f.as](pick(profile, f.from, uuid));
      if (value !== undefined) entry[f.field] = value;
    }
    if (typeof entry.profileId !== "string") continue; // nothing can be said about a profile without its id
    out.push(entry as ProfileEntry);
    if (out.length === MAX_PROFILES) break;
  }
  return out;
}
