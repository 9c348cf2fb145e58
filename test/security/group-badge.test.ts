// A group board's badge (issue 35): "#2 of 3 this week" for a member of the group. A private
// group's badge is its members' own: served to the member named through their page cookie, never to
// a stranger, nor to another member's cookie on the named member's path; a public group's badge is
// served to anyone for a member whose page is findable, and to nobody for one whose page is not.
// Leaving takes it away on the next request. Titles are escaped.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { boardPlayer, upload, type BoardPlayer } from "../boards/support.ts";
import { pageLink } from "../web/seed.ts";

let t: TestApp;
let lead: BoardPlayer;
let open: BoardPlayer;
let hidden: BoardPlayer;
let stranger: BoardPlayer;
let group = "";
const DAY = "2026-11-18";

async function call(p: BoardPlayer, method: string, path: string, body?: unknown) {
  const res = await t.request(path, {
    method,
    headers: { ...p.auth, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; inviteCode: string };
}

async function cookieOf(p: BoardPlayer) {
  const res = await t.request(await pageLink(t, p));
  expect(res.status).toBe(303);
  return res.headers.get("set-cookie")!.split(";")[0]!;
}

const badge = (name: string, cookie?: string) =>
  t.request(`/u/${name}/groups/${group}/boards/kills/badge.svg`, { headers: cookie ? { cookie } : {} });

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true }, now: "2026-11-18T12:00:00Z" });
  lead = await boardPlayer(t, "Badge_Lead", { findable: false });
  open = await boardPlayer(t, "Badge_Open", { findable: true });
  hidden = await boardPlayer(t, "Badge_Hidden", { findable: false });
  stranger = await boardPlayer(t, "Badge_Stranger", { findable: true });
  for (const [p, n] of [
    [lead, 30],
    [open, 20],
    [hidden, 40],
    [stranger, 99],
  ] as const)
    await upload(t, p, { [DAY]: { "kills.island.hub": n } });
  const made = await call(lead, "POST", "/v1/groups", { title: "Tea & <Biscuits>" });
  group = made.id;
  for (const p of [open, hidden]) await call(p, "POST", "/v1/groups/join", { code: made.inviteCode });
});
afterAll(() => t?.close());

test("a private group's badge: the member's own through their page cookie, nobody else's", async () => {
  const own = await badge(hidden.name, await cookieOf(hidden));
  expect(own.status).toBe(200);
  expect(own.headers.get("content-type")).toStartWith("image/svg+xml");
  expect(own.headers.get("cache-control")).toBe("no-store");
  const svg = await own.text();
  expect(svg).toContain("#1 of 3 this week");
  expect(svg).toContain("Tea &amp; &lt;Biscuits&gt;");
  expect(svg).not.toContain("<Biscuits>");
  // Findable but private: no badge without the member's own cookie.
  expect((await badge(open.name)).status).toBe(404);
  expect((await badge(hidden.name)).status).toBe(404);
  // Another member's cookie on the named member's path, a stranger's on their own: not theirs.
  expect((await badge(hidden.name, await cookieOf(open))).status).toBe(404);
  expect((await badge(stranger.name, await cookieOf(stranger))).status).toBe(404);
});

test("a public group's badge: anyone's for a findable member, nobody's for a member whose page is not", async () => {
  await call(lead, "PATCH", `/v1/groups/${group}`, { public: true });
  const res = await badge(open.name);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-cache");
  expect(await res.text()).toContain("#3 of 3 this week");
  const again = await t.request(`/u/${open.name}/groups/${group}/boards/kills/badge.svg`, {
    headers: { "if-none-match": res.headers.get("etag")! },
  });
  expect(again.status).toBe(304);
  expect((await badge(hidden.name)).status).toBe(404);
  expect((await badge(lead.name)).status).toBe(404);
  // Not a member, an unknown board or group, a malformed name: the same not-found page.
  expect((await badge(stranger.name)).status).toBe(404);
  expect((await t.request(`/u/${open.name}/groups/${group}/boards/nope/badge.svg`)).status).toBe(404);
  expect((await t.request(`/u/${open.name}/groups/AAAAAAAAAAAAAAAA/boards/kills/badge.svg`)).status).toBe(404);
  expect((await t.request(`/u/${"x".repeat(40)}/groups/${group}/boards/kills/badge.svg`)).status).toBe(404);
  // Leaving takes it away on the next request.
  const left = await t.request(`/v1/groups/${group}/membership`, { method: "DELETE", headers: open.auth });
  expect(left.status).toBeLessThan(300);
  expect((await badge(open.name)).status).toBe(404);
});
