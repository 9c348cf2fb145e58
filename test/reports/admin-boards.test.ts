// The maintainers' page's Boards section (issue 35): held figures and excluded players listed by
// name (never an id), an "Exclude" form by name that takes the player off every board page at once,
// "Let rank again" that puts them back from their next upload, a name no account holds refused with
// its stable code, and one log line per action that names no player.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { boardJson, boardPlayer, upload, type BoardPlayer } from "../boards/support.ts";

const ADMIN = "admin-boards-token-3e8d1c7b6a5f4e3d2c1b";
const DAY = "2026-11-18";

let t: TestApp;
let cookie: string;
let csrf: string;
let top: BoardPlayer;
let second: BoardPlayer;
let forger: BoardPlayer;

const form = (path: string, body: Record<string, string>) =>
  t.request(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: t.config.baseUrl },
    body: new URLSearchParams(body).toString(),
  });
const adminPage = async (query = "") => {
  const res = await t.request(`/admin/boards${query}`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return res.text();
};
/** The board page as anyone sees it: the names in its table. */
const boardPageNames = async () => {
  const html = await (await t.request("/boards/kills")).text();
  return ["Top_Tilda", "Second_Sam", "Forged_Fiona"].filter((n) => html.includes(n));
};
/** The page's text between two headings, without tags. */
const section = (html: string, id: string) =>
  (html.split(`id="${id}"`)[1] ?? "")
    .split("</section>")[0]!
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, adminToken: ADMIN }, now: "2026-11-18T12:00:00Z" });
  top = await boardPlayer(t, "Top_Tilda", { findable: true });
  second = await boardPlayer(t, "Second_Sam", { findable: true });
  forger = await boardPlayer(t, "Forged_Fiona", { findable: true });
  await upload(t, top, { [DAY]: { "kills.island.hub": 900 } });
  await upload(t, second, { [DAY]: { "kills.island.hub": 400 } });
  // Kills' bound is 200 000 a day: held out of the ranking and listed for the operator.
  await upload(t, forger, { [DAY]: { "kills.island.hub": 5_000_000 } });
  const login = await t.request("/admin/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: ADMIN }).toString(),
  });
  expect(login.status).toBe(303);
  cookie = login.headers.get("set-cookie")!.split(";")[0]!;
  csrf = /name="csrf" value="([^"]+)"/.exec(await adminPage())![1]!;
});
afterAll(() => t?.close());

test("the Boards section lists held figures in words, by name and never by id; nobody is excluded yet", async () => {
  const html = await adminPage();
  const held = section(html, "held-h");
  expect(held).toContain("Forged_Fiona Kills Week 47 of 2026 (16 November – 22 November) 5,000,000");
  // A month may hold 30 days' worth: 5 000 000 passes there, so only the week's figure is held.
  expect(held).not.toContain("November 2026");
  expect(held).toContain("Let rank again Exclude");
  expect(held).not.toContain("Top_Tilda");
  expect(section(html, "excluded-h")).toContain("Nobody is excluded.");
  // The page is the operator's: no account id, nothing kept, not indexed; linked from the others.
  for (const p of [top, second, forger]) expect(html).not.toContain(p.uuid);
  expect(html).toContain("<strong>Boards</strong>");
  expect(await (await t.request("/admin/reports", { headers: { cookie } })).text()).toContain('href="/admin/boards"');
});

test("excluding from the page takes the player off the board page at once; letting rank again puts them back from their next upload", async () => {
  expect(await boardPageNames()).toEqual(["Top_Tilda", "Second_Sam"]);
  const res = await form("/admin/boards/exclude", { csrf, name: "top_tilda" });
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toMatch(/^\/admin\/boards\?done=excluded&removed=[1-9]\d*$/);
  // At once, on the next request: the board page, its JSON, and the player's own membership.
  expect(await boardPageNames()).toEqual(["Second_Sam"]);
  expect((await boardJson(t, "/v1/boards/kills?window=all")).rows.map((r) => r.name)).toEqual(["Second_Sam"]);
  const membership = await (await t.request("/v1/boards/membership", { headers: top.auth })).json();
  expect((membership as { excluded: boolean }).excluded).toBe(true);
  const page = await adminPage(res.headers.get("location")!.slice("/admin/boards".length));
  expect(page).toMatch(/role="status">Excluded from every board: \d+ scores? removed\./);
  expect(section(page, "excluded-h")).toMatch(/Top_Tilda 2026-11-18 12:00 UTC Let rank again/);
  // Their uploads rank nothing while excluded.
  await upload(t, top, { [DAY]: { "kills.island.hub": 950 } });
  expect(await boardPageNames()).toEqual(["Second_Sam"]);
  // Excluding again changes nothing and says so.
  const again = await form("/admin/boards/exclude", { csrf, name: "Top_Tilda" });
  expect(again.headers.get("location")).toBe("/admin/boards?done=already");

  const back = await form("/admin/boards/include", { csrf, name: "Top_Tilda" });
  expect(back.status).toBe(303);
  expect(back.headers.get("location")).toBe("/admin/boards?done=included");
  expect(section(await adminPage(), "excluded-h")).toContain("Nobody is excluded.");
  await upload(t, top, { [DAY]: { "kills.island.hub": 960 } });
  expect(await boardPageNames()).toEqual(["Top_Tilda", "Second_Sam"]);
});

test("letting a held player rank again forgets their held figures", async () => {
  const res = await form("/admin/boards/include", { csrf, name: "Forged_Fiona" });
  expect(res.headers.get("location")).toBe("/admin/boards?done=included");
  expect(section(await adminPage(), "held-h")).toContain("No figure is held.");
  await upload(t, forger, { [DAY]: { "kills.island.hub": 700 } });
  expect(await boardPageNames()).toEqual(["Top_Tilda", "Second_Sam", "Forged_Fiona"]);
  const neither = await form("/admin/boards/include", { csrf, name: "Second_Sam" });
  expect(neither.headers.get("location")).toBe("/admin/boards?done=neither");
});

test("a name no account holds is refused 404 unknown_player, a malformed one 400 invalid_body; nothing changes", async () => {
  const unknown = await form("/admin/boards/exclude", { csrf, name: "Nobody_Here" });
  expect(unknown.status).toBe(404);
  const html = await unknown.text();
  expect(html).toContain('role="alert" data-code="unknown_player"');
  expect(html).toContain("No account on this service is named Nobody_Here.");
  // The name typed stays in the field.
  expect(html).toMatch(/name="name"[^>]*value="Nobody_Here"/);
  const includeUnknown = await form("/admin/boards/include", { csrf, name: "Nobody_Here" });
  expect(includeUnknown.status).toBe(404);
  for (const name of ["", "a b", "<script>", "x".repeat(17)]) {
    const bad = await form("/admin/boards/exclude", { csrf, name });
    expect(bad.status).toBe(400);
    const text = await bad.text();
    expect(text).toContain('data-code="invalid_body"');
    expect(text).not.toContain("<script>");
  }
  expect(section(await adminPage(), "excluded-h")).toContain("Nobody is excluded.");
});

test("each action writes one log line that names no player", async () => {
  const before = t.log.lines.length;
  await form("/admin/boards/exclude", { csrf, name: "Second_Sam" });
  await form("/admin/boards/include", { csrf, name: "Second_Sam" });
  const lines = t.log.lines.slice(before).filter((l) => String(l.msg).startsWith("boards: the operator"));
  expect(lines.map((l) => l.msg)).toEqual([
    "boards: the operator excluded a player from every board",
    "boards: the operator let a player rank again",
  ]);
  expect(lines[0]).toMatchObject({ via: "admin page", already: false });
  for (const l of t.log.lines.slice(before)) {
    expect(JSON.stringify(l)).not.toContain("Second_Sam");
    expect(JSON.stringify(l)).not.toContain(second.uuid);
  }
});
