// The player groups' SQL (issue 35): groups, their members, and a group board's scores (the
// members' rows of board_scores, read by its primary key: uuid leads it).
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import type { RankedRow } from "./ranking.query.ts";

export type GroupRow = {
  id: string;
  title: string;
  owner: string;
  inviteCode: string;
  public: boolean;
  createdAt: number;
};

const groupColumns = sql`g.id, g.title, g.owner, g.invite_code as "inviteCode", g.public, g.created_at::float8 as "createdAt"`;

export async function insertGroup(tx: Db, g: GroupRow) {
  await tx.execute(
    sql`insert into player_groups (id, title, owner, invite_code, public, created_at)
    values (${g.id}, ${g.title}, ${g.owner}, ${g.inviteCode}, ${g.public}, ${g.createdAt})`,
  );
  await tx.execute(
    sql`insert into player_group_members (group_id, uuid, joined_at) values (${g.id}, ${g.owner}, ${g.createdAt})`,
  );
}

/** How many groups the account created. */
export async function ownedCount(db: Db, uuid: string): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`select count(*)::int as n from player_groups where owner = ${uuid}`);
  return row?.n ?? 0;
}

/** A group by its id; `lock`: its row locked until the transaction ends (joins count members under it). */
export async function groupById(db: Db, id: string, lock = false): Promise<GroupRow | undefined> {
  const [row] = await rows<GroupRow>(
    db,
    sql`select ${groupColumns} from player_groups g where g.id = ${id}${lock ? sql` for update` : sql``}`,
  );
  return row;
}

export async function groupByCode(db: Db, code: string): Promise<GroupRow | undefined> {
  const [row] = await rows<GroupRow>(
    db,
    sql`select ${groupColumns} from player_groups g where g.invite_code = ${code}`,
  );
  return row;
}

export async function memberCount(db: Db, id: string): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from player_group_members where group_id = ${id}`,
  );
  return row?.n ?? 0;
}

export async function isMember(db: Db, id: string, uuid: string): Promise<boolean> {
  const [row] = await rows<{ m: boolean }>(
    db,
    sql`select exists (select 1 from player_group_members where group_id = ${id} and uuid = ${uuid}) as m`,
  );
  return row?.m ?? false;
}

/** Adds a member; answers false when already one. */
export async function addMember(tx: Db, id: string, uuid: string, now: number): Promise<boolean> {
  const added = await rows<{ uuid: string }>(
    tx,
    sql`insert into player_group_members (group_id, uuid, joined_at) values (${id}, ${uuid}, ${now})
    on conflict (group_id, uuid) do nothing returning uuid`,
  );
  return added.length > 0;
}

/** Removes a member; answers whether they were one. */
export async function removeMember(tx: Db, id: string, uuid: string): Promise<boolean> {
  const gone = await rows<{ uuid: string }>(
    tx,
    sql`delete from player_group_members where group_id = ${id} and uuid = ${uuid} returning uuid`,
  );
  return gone.length > 0;
}

/** The members' uuids, longest-standing first. */
export async function membersOf(db: Db, id: string): Promise<{ uuid: string; joinedAt: number }[]> {
  return rows(
    db,
    sql`select uuid, joined_at::float8 as "joinedAt" from player_group_members where group_id = ${id} order by joined_at, uuid`,
  );
}

/** The groups the account belongs to, with their member counts. */
export function groupsOf(db: Db, uuid: string) {
  return rows<GroupRow & { members: number }>(
    db,
    sql`select ${groupColumns}, (select count(*)::int from player_group_members c where c.group_id = g.id) as members
    from player_group_members m join player_groups g on g.id = m.group_id where m.uuid = ${uuid}
    order by m.joined_at, g.id`,
  );
}

export async function updateGroup(
  tx: Db,
  id: string,
  change: { title?: string; public?: boolean; inviteCode?: string },
) {
  await tx.execute(
    sql`update player_groups set title = coalesce(${change.title ?? null}, title),
      public = coalesce(${change.public ?? null}::boolean, public),
      invite_code = coalesce(${change.inviteCode ?? null}, invite_code) where id = ${id}`,
  );
}

export async function deleteGroup(tx: Db, id: string) {
  await tx.execute(sql`delete from player_group_members where group_id = ${id}`);
  await tx.execute(sql`delete from player_groups where id = ${id}`);
}

/** Erasure: the account leaves every group, and the groups it created go with their members. */
export async function forgetGroupsOf(tx: Db, uuid: string) {
  await tx.execute(
    sql`delete from player_group_members where uuid = ${uuid}
      or group_id in (select id from player_groups where owner = ${uuid})`,
  );
  await tx.execute(sql`delete from player_groups where owner = ${uuid}`);
}

/**
 * The members' scores on a board's window, best first (the service board's order). A group holds
 * at most GROUP_MAX_MEMBERS members, so this is a bounded number of primary-key reads.
 */
export function groupScores(db: Db, id: string, board: string, window: string) {
  return rows<RankedRow>(
    db,
    sql`select s.uuid, s.profile_id as "profileId", s.value::text as value, s.sort_value::text as "sortValue",
      s.bucket, s.reached_at::float8 as "reachedAt", s.cute_name as "cuteName"
    from player_group_members m join board_scores s on s.uuid = m.uuid and s.board = ${board} and s.window = ${window}
    where m.group_id = ${id}
    order by s.bucket, s.sort_value, s.reached_at, s.uuid, s.profile_id`,
  );
}

/** Serialises one account's creations and joins (its caps are counted under it). */
export async function lockAccountGroups(tx: Db, uuid: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`tally.groups.${uuid}`}, 0))`);
}

/** The groups the account belongs to with when it joined each (the export), in the order joined. */
export function groupsJoinedBy(db: Db, uuid: string) {
  return rows<GroupRow & { joinedAt: number }>(
    db,
    sql`select ${groupColumns}, m.joined_at::float8 as "joinedAt"
    from player_group_members m join player_groups g on g.id = m.group_id where m.uuid = ${uuid}
    order by m.joined_at, g.id`,
  );
}

/** When the account joined the group (an import restores it as the file has it). */
export async function setJoinedAt(tx: Db, id: string, uuid: string, at: number) {
  await tx.execute(sql`update player_group_members set joined_at = ${at} where group_id = ${id} and uuid = ${uuid}`);
}
