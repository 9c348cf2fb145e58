// The boards in the account's export and import (issue 35; docs/decisions.md "Boards in the export
// and import"): the opt-ins and the groups travel with the account's own file; a group it created is
// recreated where its id is free, another player's group is never joined (only its invite code
// admits); no invite code and no other member is ever in the file. The opt-ins are taken only when
// the player asks (?boards=opt-in): an import puts nobody on a board unasked. What an import restores comes
// back byte for byte; a bad value is refused with its code and nothing of the file is applied.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { boardJson, boardPlayer, upload, type BoardPlayer } from "./support.ts";

setDefaultTimeout(60_000);
const NOW = "2026-11-18T12:00:00Z";
const DAY = "2026-11-17";

let source: TestApp;
let mover: BoardPlayer;
let friend: BoardPlayer;
let file = "";
const made: Record<string, { id: string; inviteCode: string }> = {};

async function call(t: TestApp, p: BoardPlayer, method: string, path: string, body?: unknown) {
  const res = await t.request(path, {
    method,
    headers: { ...p.auth, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function exportOf(t: TestApp, p: BoardPlayer): Promise<string> {
  const res = await t.request("/v1/stats/export", { headers: p.auth });
  expect(res.status).toBe(200);
  return res.text();
}

const importTo = async (t: TestApp, p: BoardPlayer, text: string, query = "") => {
  const res = await t.request(`/v1/stats/import${query}`, {
    method: "POST",
    body: Bun.gzipSync(new TextEncoder().encode(text)),
    headers: { ...p.auth, "content-type": "application/json", "content-encoding": "gzip" },
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

const boardsOf = (text: string) => JSON.parse(text).boards;
const membership = async (t: TestApp, p: BoardPlayer) => (await call(t, p, "GET", "/v1/boards/membership")).body;

beforeAll(async () => {
  source = await testApp({ settings: { devSignin: true }, now: NOW });
  mover = await boardPlayer(source, "Moving_Mo", {
    findable: true,
    optIn: { all: false, groups: ["combat", "dungeons"] },
  });
  friend = await boardPlayer(source, "Friend_Fi", { findable: true });
  await upload(source, mover, { [DAY]: { "kills.island.hub": 12 } });
  made.own = (await call(source, mover, "POST", "/v1/groups", { title: "Mo's Guild", public: true })).body as {
    id: string;
    inviteCode: string;
  };
  made.theirs = (await call(source, friend, "POST", "/v1/groups", { title: "Fi & Friends" })).body as {
    id: string;
    inviteCode: string;
  };
  source.clock.advance(60_000);
  expect((await call(source, mover, "POST", "/v1/groups/join", { code: made.theirs!.inviteCode })).status).toBe(200);
  file = await exportOf(source, mover);
});
afterAll(() => source?.close());

test("the export holds the opt-ins and the groups, never an invite code nor another member", async () => {
  const part = boardsOf(file);
  expect(part.optIns).toEqual({ all: false, groups: ["combat", "dungeons"] });
  expect(part.groups.map((g: Record<string, unknown>) => [g.title, g.yours, g.public])).toEqual([
    ["Mo's Guild", true, true],
    ["Fi & Friends", false, false],
  ]);
  expect(Object.keys(part.groups[0]).sort()).toEqual(["createdAt", "id", "joinedAt", "public", "title", "yours"]);
  for (const code of [made.own!.inviteCode, made.theirs!.inviteCode]) expect(file).not.toContain(code);
  expect(file).not.toContain(friend.uuid);
  expect(file).not.toContain("Friend_Fi");
});

test("another instance: the opt-ins and the own group come back, another's group is named, not joined", async () => {
  const target = await testApp({ settings: { devSignin: true }, now: NOW });
  const third = await testApp({ settings: { devSignin: true }, now: NOW });
  try {
    const there = await boardPlayer(target, "Moving_Mo", { findable: true, uuid: mover.uuid, optIn: null });
    const answer = await importTo(target, there, file, "?boards=opt-in");
    expect(answer.status).toBe(200);
    expect(answer.body.warnings).toEqual([expect.objectContaining({ code: "group_not_joined", key: made.theirs!.id })]);
    expect(answer.body.warnings[0].message).toContain("Fi & Friends");
    const m = await membership(target, there);
    expect(m.groups.filter((g: { on: boolean }) => g.on).map((g: { id: string }) => g.id)).toEqual([
      "combat",
      "dungeons",
    ]);
    // Opted in by the file: ranked without opting in here.
    expect((await boardJson(target, "/v1/boards/kills")).rows.map((r) => r.name)).toEqual(["Moving_Mo"]);
    // The own group: its id, title and public flag, a new invite code, the mover its only member.
    const mine = await call(target, there, "GET", `/v1/groups/${made.own!.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.title).toBe("Mo's Guild");
    expect(mine.body.public).toBe(true);
    expect(mine.body.inviteCode).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(mine.body.inviteCode).not.toBe(made.own!.inviteCode);
    const back = await exportOf(target, there);
    const expected = boardsOf(file);
    expected.groups = expected.groups.filter((g: { yours: boolean }) => g.yours);
    expect(boardsOf(back)).toEqual(expected);
    // What an import restores comes back byte for byte, and the same file again changes nothing.
    const onward = await boardPlayer(third, "Moving_Mo", { findable: true, uuid: mover.uuid, optIn: null });
    expect((await importTo(third, onward, back, "?boards=opt-in")).body.warnings).toEqual([]);
    expect(JSON.stringify(boardsOf(await exportOf(third, onward)))).toBe(JSON.stringify(boardsOf(back)));
    expect((await importTo(third, onward, back, "?boards=opt-in")).body.warnings).toEqual([]);
    expect(JSON.stringify(boardsOf(await exportOf(third, onward)))).toBe(JSON.stringify(boardsOf(back)));
  } finally {
    await target.close();
    await third.close();
  }
});

test("without ?boards=opt-in an import puts nobody on a board, and says how to", async () => {
  const target = await testApp({ settings: { devSignin: true }, now: NOW });
  try {
    const there = await boardPlayer(target, "Moving_Mo", { findable: true, uuid: mover.uuid, optIn: null });
    const answer = await importTo(target, there, file);
    expect(answer.status).toBe(200);
    expect(answer.body.warnings.map((w: { code: string }) => w.code)).toEqual([
      "board_opt_ins_not_taken",
      "group_not_joined",
    ]);
    expect(answer.body.warnings[0].message).toContain("?boards=opt-in");
    expect((await membership(target, there)).groups.some((g: { on: boolean }) => g.on)).toBe(false);
    expect((await boardJson(target, "/v1/boards/kills")).total).toBe(0);
    // The own group is back all the same: being in a group ranks nobody who has not opted in.
    expect((await call(target, there, "GET", `/v1/groups/${made.own!.id}`)).status).toBe(200);
  } finally {
    await target.close();
  }
});

test("the same instance: the account's own file changes nothing of its groups", async () => {
  const answer = await importTo(source, mover, file, "?boards=opt-in");
  expect(answer.status).toBe(200);
  expect(answer.body.warnings).toEqual([]);
  expect(boardsOf(await exportOf(source, mover))).toEqual(boardsOf(file));
});

test("another account's file: its statistics only, no opt-ins and no groups", async () => {
  const other = await boardPlayer(source, "Other_Ot", { findable: true, optIn: null });
  const answer = await importTo(source, other, file, "?confirm=other-account&boards=opt-in");
  expect(answer.status).toBe(200);
  expect(answer.body.warnings.map((w: { code: string }) => w.code)).toEqual(["boards_not_taken"]);
  expect((await membership(source, other)).all).toBe(false);
  expect((await membership(source, other)).groups.some((g: { on: boolean }) => g.on)).toBe(false);
  expect((await call(source, other, "GET", "/v1/groups")).body.groups).toEqual([]);
});

test("a board group this instance has no boards in is left out with a warning", async () => {
  const doc = JSON.parse(file);
  doc.boards.optIns.groups = ["combat", "farming-contests"];
  const answer = await importTo(source, mover, JSON.stringify(doc), "?boards=opt-in");
  expect(answer.status).toBe(200);
  expect(answer.body.warnings).toEqual([
    expect.objectContaining({ code: "board_group_unknown", key: "farming-contests" }),
  ]);
});

test("bad values are refused with their code, and nothing of the file is applied", async () => {
  const fresh = await boardPlayer(source, "Fresh_Fr", { findable: true, uuid: "f".repeat(32), optIn: null });
  const base = JSON.parse(file);
  base.account.uuid = fresh.uuid;
  const cases: [string, (d: any) => void, number, string, string?][] = [
    ["not a boolean", (d) => (d.boards.optIns.all = "yes"), 400, "invalid_body", "/boards/optIns/all"],
    ["an unknown field", (d) => (d.boards.groups[0].inviteCode = "x".repeat(32)), 400, "invalid_body"],
    ["a malformed id", (d) => (d.boards.groups[0].id = "../../etc"), 400, "invalid_body", "/boards/groups/0/id"],
    ["a group twice", (d) => d.boards.groups.push(d.boards.groups[0]), 400, "invalid_body", "/boards/groups/2/id"],
    [
      "a title too long",
      (d) => (d.boards.groups[0].title = "x".repeat(41)),
      400,
      "invalid_body",
      "/boards/groups/0/title",
    ],
    [
      "a title not trimmed",
      (d) => (d.boards.groups[0].title = " Mo's Guild"),
      400,
      "invalid_body",
      "/boards/groups/0/title",
    ],
    [
      "a title in a player name's shape",
      (d) => (d.boards.groups[0].title = "[MVP+] Technoblade"),
      422,
      "denylisted_string",
      "/boards/groups/0/title",
    ],
    [
      "more own groups than a player may create",
      (d) =>
        (d.boards.groups = Array.from({ length: 11 }, (_, i) => ({
          ...d.boards.groups[0],
          yours: true,
          id: `group${String(i).padStart(11, "0")}`,
        }))),
      400,
      "invalid_body",
      "/boards/groups",
    ],
    ["not an object", (d) => (d.boards = []), 400, "invalid_body"],
  ];
  for (const [what, spoil, status, code, path] of cases) {
    const doc = structuredClone(base);
    spoil(doc);
    const answer = await importTo(source, fresh, JSON.stringify(doc), "?boards=opt-in");
    expect([what, answer.status, answer.body.error?.code]).toEqual([what, status, code]);
    if (path) expect([what, answer.body.error?.path]).toEqual([what, path]);
  }
  // Nothing applied: no opt-in, no group, no statistics.
  expect((await membership(source, fresh)).groups.some((g: { on: boolean }) => g.on)).toBe(false);
  expect((await call(source, fresh, "GET", "/v1/groups")).body.groups).toEqual([]);
  const totals = await source.request("/v1/stats/totals", { headers: fresh.auth });
  expect(JSON.stringify(await totals.json())).not.toContain("kills.island.hub");
});
