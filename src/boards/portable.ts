// The boards' part of the account's export and import (issue 35; docs/decisions.md "Boards in the
// export and import"): the account's opt-ins and the groups it belongs to, as the export's `boards`
// head field. stats' export and import call these back (stats imports nothing of boards).
//   - opt-ins: the board groups opted in to (or all); an import adds them to the account's own only
//     when the player asks (?boards=opt-in: an import puts nobody on a board unasked, as it turns
//     no statistics category on); a board group this instance does not define is left out, warned.
//   - groups: each group's id, title, public flag, when it was made and joined, and whether the
//     account created it. Never its invite code (whoever holds it may join) nor its other members
//     (the service keeps nothing about other players in one player's file).
//   An import recreates a group the account created when its id is free here (a new invite code,
//   the account its only member); it never joins another player's group (only the group's invite
//   code admits), and says so with a warning naming the group. Only the account's own file moves
//   any of it: another account's file (?confirm=other-account) takes its statistics only.
import { Type as T, type Static } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { Db } from "../db/database.ts";
import { ApiError } from "../http/errors.ts";
import type { Boards } from "./definitions.ts";
import * as b from "./boards.query.ts";
import * as q from "./groups.query.ts";
import { cleanTitle, GROUP_ID_PATTERN, GROUPS_CREATED_MAX, GROUPS_JOINED_MAX, newCode, TITLE_MAX } from "./groups.ts";

const strict = { additionalProperties: false } as const;
const Epoch = T.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

export const BoardsPart = T.Object(
  {
    optIns: T.Object(
      {
        all: T.Boolean(),
        groups: T.Array(T.String({ pattern: "^[a-z0-9][a-z0-9-]{0,47}$", maxLength: 48 }), { maxItems: 64 }),
      },
      strict,
    ),
    groups: T.Array(
      T.Object(
        {
          id: T.String({ pattern: GROUP_ID_PATTERN, maxLength: 16 }),
          title: T.String({ minLength: 1, maxLength: TITLE_MAX }),
          public: T.Boolean(),
          yours: T.Boolean(),
          createdAt: Epoch,
          joinedAt: Epoch,
        },
        strict,
      ),
      { maxItems: GROUPS_JOINED_MAX },
    ),
  },
  strict,
);
export type BoardsFile = Static<typeof BoardsPart>;
const checker = TypeCompiler.Compile(BoardsPart);

/** The account's part of the export. */
export async function exportBoards(db: Db, uuid: string): Promise<BoardsFile> {
  const [{ groups: optins }, mine] = await Promise.all([b.optinsAndExclusion(db, uuid), q.groupsJoinedBy(db, uuid)]);
  const all = optins.includes("*");
  return {
    optIns: { all, groups: all ? [] : optins },
    groups: mine.map((g) => ({
      id: g.id,
      title: g.title,
      public: g.public,
      yours: g.owner === uuid,
      createdAt: g.createdAt,
      joinedAt: g.joinedAt,
    })),
  };
}

/**
 * The file's part, checked as a request body is (the import's first pass: nothing written): its
 * shape (400 invalid_body at its path), each title as a typed title (denylist: 422
 * denylisted_string), no group twice, at most GROUPS_CREATED_MAX of the account's own.
 */
export function checkBoardsPart(value: unknown): BoardsFile {
  const error = checker.Errors(value).First();
  if (error) throw new ApiError("invalid_body", `the file's boards part: ${error.message}`, `/boards${error.path}`);
  const part = value as BoardsFile;
  const seen = new Set<string>();
  part.groups.forEach((g, i) => {
    if (seen.has(g.id))
      throw new ApiError("invalid_body", `the group ${g.id} is listed twice`, `/boards/groups/${i}/id`);
    seen.add(g.id);
    if (cleanTitle(g.title, `/boards/groups/${i}/title`) !== g.title)
      throw new ApiError("invalid_body", "a group's title is stored trimmed, one line", `/boards/groups/${i}/title`);
  });
  if (part.groups.filter((g) => g.yours).length > GROUPS_CREATED_MAX)
    throw new ApiError(
      "invalid_body",
      `a player creates at most ${GROUPS_CREATED_MAX} groups; the file lists more`,
      "/boards/groups",
    );
  return part;
}

type Warning = { code: string; message: string; key?: string };

/**
 * Takes the file's part into the account, in the import's transaction: opt-ins added to the
 * account's when `optIns` (else a warning saying how), the account's own groups recreated where
 * their id is free. Answers its warnings.
 * Refuses (too_many_groups) when the account would belong to more groups than a player may.
 */
export async function importBoards(
  tx: Db,
  deps: { boards: Boards },
  uuid: string,
  part: BoardsFile,
  now: number,
  optIns: boolean,
): Promise<Warning[]> {
  const warnings: Warning[] = [];
  const asks = part.optIns.all || part.optIns.groups.length > 0;
  if (asks && !optIns)
    warnings.push({
      code: "board_opt_ins_not_taken",
      message: `the file opts in to ${part.optIns.all ? "every board" : `the board groups ${part.optIns.groups.join(", ")}`}; an import puts nobody on a board unasked: send it again with ?boards=opt-in, or opt in here`,
    });
  if (optIns) await takeOptIns(tx, deps.boards, uuid, part, now, warnings);
  await restoreGroups(tx, uuid, part, warnings);
  return warnings;
}

/** The file's opt-ins added to the account's (a board group this instance lacks: a warning). */
async function takeOptIns(tx: Db, boards: Boards, uuid: string, part: BoardsFile, now: number, warnings: Warning[]) {
  await b.lockAccountScores(tx, uuid);
  const had = (await b.optinsAndExclusion(tx, uuid)).groups;
  const known = part.optIns.groups.filter((g) => boards.groups.includes(g));
  for (const g of part.optIns.groups)
    if (!boards.groups.includes(g))
      warnings.push({
        code: "board_group_unknown",
        message: `the file opts in to the board group ${g}, which this instance has no boards in; left out`,
        key: g,
      });
  const wanted = part.optIns.all || had.includes("*") ? ["*"] : [...new Set([...had, ...known])].sort();
  if (wanted.join() !== had.join()) await b.replaceOptins(tx, uuid, wanted, now);
}

/** The account's own groups recreated where their id is free here; any other group named in a warning. */
async function restoreGroups(tx: Db, uuid: string, part: BoardsFile, warnings: Warning[]) {
  await q.lockAccountGroups(tx, uuid);
  const member = new Set((await q.groupsJoinedBy(tx, uuid)).map((g) => g.id));
  for (const g of part.groups) {
    if (member.has(g.id)) continue;
    const here = await q.groupById(tx, g.id);
    if (g.yours && !here) {
      await q.insertGroup(tx, {
        id: g.id,
        title: g.title,
        owner: uuid,
        inviteCode: newCode(),
        public: g.public,
        createdAt: g.createdAt,
      });
      if (g.joinedAt !== g.createdAt) await q.setJoinedAt(tx, g.id, uuid, g.joinedAt);
      member.add(g.id);
    } else
      warnings.push({
        code: "group_not_joined",
        message: `not a member of the group "${g.title}" here: ${g.yours ? "its id is another group's on this instance" : "only its invite code admits; ask its creator for one"}`,
        key: g.id,
      });
  }
  if (member.size > GROUPS_JOINED_MAX)
    throw new ApiError(
      "too_many_groups",
      `with this file the account would belong to more than ${GROUPS_JOINED_MAX} groups; nothing of it was stored`,
    );
  if ((await q.ownedCount(tx, uuid)) > GROUPS_CREATED_MAX)
    throw new ApiError(
      "too_many_groups",
      `with this file the account would have created more than ${GROUPS_CREATED_MAX} groups; nothing of it was stored`,
    );
}

/** The hooks stats' export and import take (createApp and the import command set them). */
export function boardsPortable(boards: Boards) {
  return {
    export: exportBoards,
    check: checkBoardsPart,
    apply: (tx: Db, uuid: string, part: unknown, now: number, optIns: boolean) =>
      importBoards(tx, { boards }, uuid, part as BoardsFile, now, optIns),
  };
}
