// Player groups (issue 35): a player creates a group (a guild, friends) and is given an invite
// code; others join with the code, and each is ranked on its boards only once they opted in to
// boards themselves. The creator renames it, makes it public or private, rotates the code (the old
// one stops working at once) and removes members; a member leaves at once. A private group's boards
// and members are seen by its members only: to anyone else an unknown group and a private one answer
// alike, 404 unknown_group (docs/decisions.md, "Boards: player groups").
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { randomBase64url } from "../http/secret.ts";
import { limitFailures } from "../http/rate-limit.ts";
import { denylistMatch } from "../privacy/denylist.ts";
import { accountByName, namesOf } from "../accounts/accounts.ts";
import * as q from "./groups.query.ts";

export type GroupDeps = { db: Db; clock: Clock; config: Pick<Config, "groupMaxMembers" | "groupJoinFailures"> };

/** Groups one account may create (bounded rows a player can make the service keep). */
export const GROUPS_CREATED_MAX = 10;
/** Groups one account may belong to. */
export const GROUPS_JOINED_MAX = 50;
export const TITLE_MAX = 40;
/** An invite code: 24 random bytes, 32 base64url characters (192 bits; guessing one is hopeless). */
export const INVITE_CODE_PATTERN = "^[A-Za-z0-9_-]{32}$";
export const newCode = () => randomBase64url(24);
/** A group's id: 12 random bytes, 16 base64url characters. */
export const GROUP_ID_PATTERN = "^[A-Za-z0-9_-]{16}$";
const newId = () => randomBase64url(12);

const unknown = (id: string) =>
  new ApiError("unknown_group", `no group ${id} that you may see; a private group is seen by its members only`);

/** A title as typed: trimmed, one line, no player-name shapes (the denylist over every stored string). */
export function cleanTitle(title: string, path = "/title"): string {
  const t = title.trim().replace(/\s+/g, " ");
  if (t.length === 0 || t.length > TITLE_MAX)
    throw new ApiError("invalid_body", `a group's title is 1 to ${TITLE_MAX} characters`, path);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(t)) throw new ApiError("invalid_body", "a title is one line of text", path);
  const rule = denylistMatch(t);
  if (rule)
    throw new ApiError(
      "denylisted_string",
      `the title has the shape of a player name in game text (${rule}); the service stores nothing about other players`,
      path,
    );
  return t;
}

/** A group as its member sees it: the code only for its creator. */
function describe(g: q.GroupRow, members: number, uuid: string, max: number) {
  const owner = g.owner === uuid;
  return {
    id: g.id,
    title: g.title,
    public: g.public,
    members,
    maxMembers: max,
    yours: owner,
    inviteCode: owner ? g.inviteCode : null,
    createdAt: g.createdAt,
  };
}

/** The groups the account belongs to. */
export async function myGroups(deps: GroupDeps, uuid: string) {
  const list = await q.groupsOf(deps.db, uuid);
  return { groups: list.map((g) => describe(g, g.members, uuid, deps.config.groupMaxMembers)) };
}

export async function createGroup(deps: GroupDeps, uuid: string, asked: { title: string; public?: boolean }) {
  const title = cleanTitle(asked.title);
  return deps.db.transaction(async (tx) => {
    await q.lockAccountGroups(tx, uuid);
    if ((await q.ownedCount(tx, uuid)) >= GROUPS_CREATED_MAX)
      throw new ApiError("too_many_groups", `a player creates at most ${GROUPS_CREATED_MAX} groups; delete one first`);
    if ((await q.groupsOf(tx, uuid)).length >= GROUPS_JOINED_MAX)
      throw new ApiError("too_many_groups", `a player belongs to at most ${GROUPS_JOINED_MAX} groups; leave one first`);
    const g: q.GroupRow = {
      id: newId(),
      title,
      owner: uuid,
      inviteCode: newCode(),
      public: asked.public ?? false,
      createdAt: deps.clock.now(),
    };
    await q.insertGroup(tx, g);
    return describe(g, 1, uuid, deps.config.groupMaxMembers);
  });
}

/**
 * Joins the group whose code this is. A wrong code counts against the client address's
 * GROUP_JOIN_FAILURES_PER_HOUR before it is looked at, so past the limit nothing is tried (429).
 */
export async function joinGroup(deps: GroupDeps, uuid: string, code: string, address: string) {
  const found = /^[A-Za-z0-9_-]{32}$/.test(code) ? await q.groupByCode(deps.db, code) : undefined;
  const limit = {
    name: "group-join",
    perWindow: deps.config.groupJoinFailures,
    windowMs: 3_600_000,
    what: "wrong invite codes",
  };
  const right = await limitFailures(deps, limit, address, () => found !== undefined);
  if (!right || !found) throw new ApiError("unknown_group", "no group has this invite code (it may have been changed)");
  return deps.db.transaction(async (tx) => {
    const g = await q.groupById(tx, found.id, true);
    // Rotated between the look-up and the lock: the code no longer admits.
    if (!g || g.inviteCode !== code)
      throw new ApiError("unknown_group", "no group has this invite code (it may have been changed)");
    if (await q.isMember(tx, g.id, uuid))
      return describe(g, await q.memberCount(tx, g.id), uuid, deps.config.groupMaxMembers);
    await q.lockAccountGroups(tx, uuid);
    if ((await q.groupsOf(tx, uuid)).length >= GROUPS_JOINED_MAX)
      throw new ApiError("too_many_groups", `a player belongs to at most ${GROUPS_JOINED_MAX} groups; leave one first`);
    const n = await q.memberCount(tx, g.id);
    if (n >= deps.config.groupMaxMembers)
      throw new ApiError("group_full", `the group has its ${deps.config.groupMaxMembers} members already`);
    await q.addMember(tx, g.id, uuid, deps.clock.now());
    return describe(g, n + 1, uuid, deps.config.groupMaxMembers);
  });
}

/** The group and its members, for a member (anyone else: unknown_group). */
export async function groupDetail(deps: GroupDeps, uuid: string, id: string) {
  const g = await q.groupById(deps.db, id);
  if (!g || !(await q.isMember(deps.db, id, uuid))) throw unknown(id);
  const members = await q.membersOf(deps.db, id);
  const names = await namesOf(
    deps.db,
    members.map((m) => m.uuid),
  );
  return {
    ...describe(g, members.length, uuid, deps.config.groupMaxMembers),
    // The creator first, then the longest-standing.
    list: [...members.filter((m) => m.uuid === g.owner), ...members.filter((m) => m.uuid !== g.owner)].map((m) => ({
      name: names.get(m.uuid)?.name ?? "a player",
      creator: m.uuid === g.owner,
      you: m.uuid === uuid,
      joinedAt: m.joinedAt,
    })),
  };
}

/** The group, locked, when `uuid` created it; a member who did not: not_group_owner; anyone else: unknown_group. */
async function ownGroup(tx: Db, uuid: string, id: string) {
  const g = await q.groupById(tx, id, true);
  if (!g || !(await q.isMember(tx, id, uuid))) throw unknown(id);
  if (g.owner !== uuid) throw new ApiError("not_group_owner", "only the group's creator may do this");
  return g;
}

export async function changeGroup(
  deps: GroupDeps,
  uuid: string,
  id: string,
  change: { title?: string; public?: boolean },
) {
  const title = change.title === undefined ? undefined : cleanTitle(change.title);
  await deps.db.transaction(async (tx) => {
    await ownGroup(tx, uuid, id);
    await q.updateGroup(tx, id, { title, public: change.public });
  });
  return groupDetail(deps, uuid, id);
}

/** A new invite code; the old one stops admitting at once. */
export async function rotateCode(deps: GroupDeps, uuid: string, id: string) {
  await deps.db.transaction(async (tx) => {
    await ownGroup(tx, uuid, id);
    await q.updateGroup(tx, id, { inviteCode: newCode() });
  });
  return groupDetail(deps, uuid, id);
}

/** The creator removes a member by name (they may join again only with the current code). */
export async function removeMember(deps: GroupDeps, uuid: string, id: string, name: string) {
  await deps.db.transaction(async (tx) => {
    const g = await ownGroup(tx, uuid, id);
    const who = await accountByName(tx, name);
    if (!who || who.uuid === g.owner || !(await q.removeMember(tx, id, who.uuid)))
      throw new ApiError("unknown_group_member", `${name} is not a member the creator may remove`);
  });
  return groupDetail(deps, uuid, id);
}

/** A member leaves at once; the creator deletes the group instead. */
export async function leaveGroup(deps: GroupDeps, uuid: string, id: string) {
  await deps.db.transaction(async (tx) => {
    const g = await q.groupById(tx, id, true);
    if (!g || !(await q.isMember(tx, id, uuid))) throw unknown(id);
    if (g.owner === uuid)
      throw new ApiError("conflict", "the creator cannot leave their group; delete it (DELETE /v1/groups/{id})");
    await q.removeMember(tx, id, uuid);
  });
  return myGroups(deps, uuid);
}

export async function deleteGroup(deps: GroupDeps, uuid: string, id: string) {
  await deps.db.transaction(async (tx) => {
    await ownGroup(tx, uuid, id);
    await q.deleteGroup(tx, id);
  });
  return myGroups(deps, uuid);
}

/** Erasure of the account (boards' leaveBoards calls it): its memberships and the groups it created go. */
export const forgetGroups = (tx: Db, uuid: string) => q.forgetGroupsOf(tx, uuid);
