// A group's board (issue 35) in chromium, seen by a member through their page cookie, at a phone's
// width (390 px) and a desktop's (1280 px), light and dark: members only, by name (members see each
// other), the title escaped, the viewer's own rank pinned; and the group's page. Screenshots under
// test/artifacts/group-*.png.
import { expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(60_000);
import { join } from "node:path";
import { testApp, type TestApp } from "../support/app.ts";
import { artifactsDir, eachView, inChromium, openPage, pictured } from "../support/browser.ts";
import { boardPlayer, upload, type BoardPlayer } from "../boards/support.ts";
import { pageLink } from "./seed.ts";

const artifacts = artifactsDir();

let viewer: BoardPlayer;
let groupId: string;

const post = async (t: TestApp, p: BoardPlayer, path: string, body: unknown) =>
  (await (
    await t.request(path, {
      method: "POST",
      headers: { ...p.auth, "content-type": "application/json" },
      body: JSON.stringify(body),
    })
  ).json()) as { id: string; inviteCode: string };

const world = inChromium(
  () => testApp({ settings: { devSignin: true }, now: "2026-11-18T12:00:00Z" }),
  async (t) => {
    const names = ["Lantern_Lead", "MiningMarta", "Quiet_One", "Kiri", "Outside_Olly"];
    const players: BoardPlayer[] = [];
    for (const [i, name] of names.entries()) {
      const p = await boardPlayer(t, name, { findable: name === "Kiri" || name === "Outside_Olly" });
      players.push(p);
      t.clock.advance(1000);
      await upload(t, p, {
        "2026-11-17": { "kills.island.hub": 900 - i * 130 + (name === "Outside_Olly" ? 5000 : 0) },
      });
    }
    const group = await post(t, players[0]!, "/v1/groups", { title: "The <Lanterns> & friends" });
    groupId = group.id;
    for (const p of players.slice(1, 4)) await post(t, p, "/v1/groups/join", { code: group.inviteCode });
    viewer = players[2]!;
  },
);

test("a group's board and its page, in both themes on a phone and a desktop", async () => {
  const { t, base, browser } = world;
  const { page, close } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(base + (await pageLink(t, viewer)), { waitUntil: "load" });
  const res = await page.goto(`${base}/u/${viewer.name}/groups/${groupId}/boards/kills`, { waitUntil: "load" });
  expect(res?.status()).toBe(200);
  await eachView(page, async (scheme, width) => {
    const text = await page.textContent("main");
    expect(text).toContain("The <Lanterns> & friends");
    expect(text).not.toContain("Outside_Olly");
    const rows = await page.$$eval("table.board-table tbody tr", (trs) => trs.map((tr) => tr.textContent ?? ""));
    // The viewer is on the page shown: their rank is a line above it, the four members listed once.
    expect(rows).toHaveLength(4);
    expect(text).toContain("Your rank: #3 of 4");
    expect(rows.filter((r) => r.includes("(you)"))).toHaveLength(1);
    expect(rows.filter((r) => r.includes("A player"))).toHaveLength(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    if (pictured(scheme, width))
      await page.screenshot({ path: join(artifacts, `group-board-${width}-${scheme}.png`), fullPage: true });
  });
  await page.goto(`${base}/u/${viewer.name}/groups/${groupId}`, { waitUntil: "load" });
  await eachView(page, async (scheme, width) => {
    expect(await page.textContent("main")).toContain("Lantern_Lead");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    if (pictured(scheme, width))
      await page.screenshot({ path: join(artifacts, `group-page-${width}-${scheme}.png`), fullPage: true });
  });
  await close();
});
