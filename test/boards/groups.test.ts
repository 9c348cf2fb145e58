// Player groups (issue 35): a group's board ranks its members only (each opted in themselves); a
// non-member, or anyone without the token, is answered 404 unknown_group as if it did not exist;
// rotating the code stops the old one at once; removing and leaving take effect on the next
// request; titles go through the denylist; a full group refuses; erasing the account takes its
// memberships and the groups it created.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { boardJson, boardPlayer, upload, type BoardPlayer } from "./support.ts";
import { pageLink } from "../web/seed.ts";

let t: TestApp;
let owner: BoardPlayer;
let friend: BoardPlayer;
let notOptedIn: BoardPlayer;
let stranger: BoardPlayer;
const DAY = "2026-11-18";
const kills = (n: number) => ({ [DAY]: { "kills.island.hub": n } });

type Group = { id: string; title: string; inviteCode: string | null; members: number; public: boolean };

async function call<T = Group>(p: { auth: { authorization: string } }, method: string, path: string, body?: unknown) {
  const res = await t.request(path, {
    method,
    headers: { ...p.auth, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as T & { error?: { code: string } } };
}

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, groupMaxMembers: 3 }, now: "2026-11-18T12:00:00Z" });
  owner = await boardPlayer(t, "Guild_Lead", { findable: false });
  friend = await boardPlayer(t, "Guild_Friend", { findable: false });
  notOptedIn = await boardPlayer(t, "Guild_Shy", { findable: false, optIn: null });
  stranger = await boardPlayer(t, "Outsider_One", { findable: true });
  await upload(t, owner, kills(30));
  await upload(t, friend, kills(20));
  await upload(t, notOptedIn, kills(50));
  await upload(t, stranger, kills(99));
});
afterAll(() => t?.close());

test("a group's board ranks its members only; members see each other's names", async () => {
  const made = await call(owner, "POST", "/v1/groups", { title: "  The <b>Lanterns</b>  " });
  expect(made.status).toBe(200);
  expect(made.body.title).toBe("The <b>Lanterns</b>");
  expect(made.body.inviteCode).toMatch(/^[A-Za-z0-9_-]{32}$/);
  const code = made.body.inviteCode!;
  for (const p of [friend, notOptedIn]) expect((await call(p, "POST", "/v1/groups/join", { code })).status).toBe(200);
  // The friend does not see the code.
  const seen = await call<{ groups: Group[] }>(friend, "GET", "/v1/groups");
  expect(seen.body.groups.map((g) => [g.title, g.members, g.inviteCode])).toEqual([["The <b>Lanterns</b>", 3, null]]);

  const page = await boardJson(t, `/v1/groups/${made.body.id}/boards/kills`, friend.auth);
  // The stranger's 99 is on the service board, not the group's; the member who did not opt in is on neither.
  expect(page.rows.map((r) => [r.rank, r.name, r.value])).toEqual([
    [1, "Guild_Lead", 30],
    [2, "Guild_Friend", 20],
  ]);
  expect(page.me.map((m) => m.rank)).toEqual([2]);
  const service = await boardJson(t, "/v1/boards/kills");
  expect(service.rows.map((r) => r.value)).toEqual([99, 30, 20]);

  // The member's page view, through the page cookie, escapes the title.
  const html = await groupPageHtml(friend, made.body.id);
  expect(html).toContain("The &lt;b&gt;Lanterns&lt;/b&gt;");
  expect(html).toContain("Guild_Lead");
});

async function groupPageHtml(p: BoardPlayer, id: string) {
  const { cookie } = await pageCookie(p);
  const res = await t.request(`/u/${p.name}/groups/${id}/boards/kills`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return res.text();
}

async function pageCookie(p: BoardPlayer) {
  const res = await t.request(await pageLink(t, p));
  expect(res.status).toBe(303);
  return { cookie: res.headers.get("set-cookie")!.split(";")[0]! };
}

test("a non-member, or no token, gets 404 unknown_group, the same as a group that does not exist", async () => {
  const made = await call(owner, "POST", "/v1/groups", { title: "Private one" });
  for (const auth of [stranger.auth, {}]) {
    const res = await t.request(`/v1/groups/${made.body.id}/boards/kills`, { headers: auth });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unknown_group");
  }
  const none = await t.request("/v1/groups/AAAAAAAAAAAAAAAA/boards/kills", { headers: stranger.auth });
  expect(none.status).toBe(404);
  expect((await call(stranger, "GET", `/v1/groups/${made.body.id}`)).body.error?.code).toBe("unknown_group");
  expect((await t.request(`/groups/${made.body.id}/boards/kills`)).status).toBe(404);
  // A stranger's own page cookie opens their own view, not the group's.
  const { cookie } = await pageCookie(stranger);
  for (const path of [
    `/u/${stranger.name}/groups/${made.body.id}`,
    `/u/${stranger.name}/groups/${made.body.id}/boards/kills`,
  ])
    expect((await t.request(path, { headers: { cookie } })).status).toBe(404);
  // The owner's path with the stranger's cookie: not theirs either.
  expect((await t.request(`/u/${owner.name}/groups/${made.body.id}`, { headers: { cookie } })).status).toBe(404);
  // Made public: anyone sees it, a member's name only where their page is findable.
  expect((await call(owner, "PATCH", `/v1/groups/${made.body.id}`, { public: true })).status).toBe(200);
  const open = await boardJson(t, `/v1/groups/${made.body.id}/boards/kills`);
  expect(open.rows.map((r) => [r.name, r.value])).toEqual([[null, 30]]);
  expect((await t.request(`/groups/${made.body.id}/boards/kills`)).status).toBe(200);
});

test("rotating the code stops the old one at once; the new one admits", async () => {
  const made = await call(owner, "POST", "/v1/groups", { title: "Rotating" });
  const old = made.body.inviteCode!;
  const rotated = await call(owner, "POST", `/v1/groups/${made.body.id}/code`);
  expect(rotated.body.inviteCode).not.toBe(old);
  const refused = await call(stranger, "POST", "/v1/groups/join", { code: old });
  expect([refused.status, refused.body.error?.code]).toEqual([404, "unknown_group"]);
  // Only the creator rotates.
  expect((await call(stranger, "POST", "/v1/groups/join", { code: rotated.body.inviteCode })).status).toBe(200);
  expect((await call(stranger, "POST", `/v1/groups/${made.body.id}/code`)).body.error?.code).toBe("not_group_owner");
});

test("the creator removes a member and a member leaves, each on the next request", async () => {
  const made = await call(owner, "POST", "/v1/groups", { title: "Short lived" });
  const code = made.body.inviteCode!;
  await call(friend, "POST", "/v1/groups/join", { code });
  await call(stranger, "POST", "/v1/groups/join", { code });
  const full = await call(notOptedIn, "POST", "/v1/groups/join", { code });
  expect([full.status, full.body.error?.code]).toEqual([409, "group_full"]);
  const removed = await call<{ list: { name: string }[] }>(
    owner,
    "DELETE",
    `/v1/groups/${made.body.id}/members/Outsider_One`,
  );
  expect(removed.body.list.map((m) => m.name)).toEqual(["Guild_Lead", "Guild_Friend"]);
  expect((await t.request(`/v1/groups/${made.body.id}/boards/kills`, { headers: stranger.auth })).status).toBe(404);
  expect((await call(friend, "DELETE", `/v1/groups/${made.body.id}/membership`)).status).toBe(200);
  const page = await boardJson(t, `/v1/groups/${made.body.id}/boards/kills`, owner.auth);
  expect(page.rows.map((r) => r.value)).toEqual([30]);
  expect((await call(owner, "DELETE", `/v1/groups/${made.body.id}/membership`)).body.error?.code).toBe("conflict");
});

test("a title in the shape of a player name is refused; an empty one too", async () => {
  const named = await call(owner, "POST", "/v1/groups", { title: "[MVP+] Technoblade" });
  expect([named.status, named.body.error?.code]).toEqual([422, "denylisted_string"]);
  expect((await call(owner, "POST", "/v1/groups", { title: "   " })).body.error?.code).toBe("invalid_body");
});

test("erasing the account takes its memberships and the groups it created", async () => {
  const p = await boardPlayer(t, "Leaving_Soon", { findable: false });
  const made = await call(p, "POST", "/v1/groups", { title: "Gone soon" });
  await call(friend, "POST", "/v1/groups/join", { code: made.body.inviteCode });
  expect((await t.request("/v1/stats/account", { method: "DELETE", headers: p.auth })).status).toBe(200);
  const left = await call<{ groups: Group[] }>(friend, "GET", "/v1/groups");
  expect(left.body.groups.some((g) => g.id === made.body.id)).toBe(false);
  expect((await t.request(`/v1/groups/${made.body.id}/boards/kills`, { headers: friend.auth })).status).toBe(404);
});

test("a member's page forms: the creator rotates the code, a member leaves; another site's post is refused", async () => {
  const made = await call(owner, "POST", "/v1/groups", { title: "Forms" });
  await call(friend, "POST", "/v1/groups/join", { code: made.body.inviteCode });
  const own = (await pageCookie(owner)).cookie;
  const base = `/u/${owner.name}/groups/${made.body.id}`;
  const page = await (await t.request(base, { headers: { cookie: own } })).text();
  expect(page).toContain(made.body.inviteCode!);
  const post = (path: string, cookie: string, origin: string) =>
    t.request(path, { method: "POST", headers: { cookie, origin } });
  expect((await post(`${base}/code`, own, "https://evil.example")).status).toBe(403);
  const rotated = await post(`${base}/code`, own, new URL(t.config.baseUrl).origin);
  expect([rotated.status, rotated.headers.get("location")]).toEqual([303, base]);
  expect((await call(stranger, "POST", "/v1/groups/join", { code: made.body.inviteCode })).status).toBe(404);
  // The friend's page shows no code and offers leaving.
  const mine = (await pageCookie(friend)).cookie;
  const theirs = `/u/${friend.name}/groups/${made.body.id}`;
  const view = await (await t.request(theirs, { headers: { cookie: mine } })).text();
  expect(view).not.toContain("Whoever has this code");
  expect(view).toContain("Leave the group");
  const left = await post(`${theirs}/leave`, mine, new URL(t.config.baseUrl).origin);
  expect([left.status, left.headers.get("location")]).toEqual([303, `/u/${friend.name}`]);
  expect((await t.request(theirs, { headers: { cookie: mine } })).status).toBe(404);
});
