// A board rank's badge and card (issue 35): "#2 of 3 this week" for a player on the board whose
// page is findable, and its card, which the player's board address /u/<name>/boards/<board> names
// as its link preview. Anyone else (not findable, not opted in, excluded, an unknown board or a
// malformed name) gets the same not-found page as a refused group badge. Revalidated on every use:
// an opt-out or an exclusion takes the badge, the card and the preview away on the next request.
// A group rank's card follows the group badge's terms.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { boardPlayer, optIn, upload, type BoardPlayer } from "../boards/support.ts";
import { pageLink } from "../web/seed.ts";
import { runBoardsCommand } from "../../src/boards/command.ts";

let t: TestApp;
let open: BoardPlayer;
let hidden: BoardPlayer;
let shy: BoardPlayer;
let other: BoardPlayer;
const DAY = "2026-11-18";

const badge = (name: string, board = "kills") => t.request(`/u/${name}/boards/${board}/badge.svg`);
const card = (name: string, board = "kills") => t.request(`/u/${name}/boards/${board}/card.png`);
const page = (name: string) => t.request(`/u/${name}/boards/kills`);
/** The answer every refused picture gives: a refused group badge's. */
let refused = "";

async function cookieOf(p: BoardPlayer) {
  const res = await t.request(await pageLink(t, p));
  expect(res.status).toBe(303);
  return res.headers.get("set-cookie")!.split(";")[0]!;
}

async function expectRefused(res: Response) {
  expect(res.status).toBe(404);
  expect(res.headers.get("content-type")).toStartWith("text/html");
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(await res.text()).toBe(refused);
}

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true }, now: "2026-11-18T12:00:00Z" });
  open = await boardPlayer(t, "Rank_Open", { findable: true });
  hidden = await boardPlayer(t, "Rank_Hidden", { findable: false });
  shy = await boardPlayer(t, "Rank_Shy", { findable: true, optIn: null });
  other = await boardPlayer(t, "Rank_Other", { findable: true });
  for (const [p, n] of [
    [open, 30],
    [hidden, 40],
    [shy, 99],
    [other, 10],
  ] as const)
    await upload(t, p, { [DAY]: { "kills.island.hub": n } });
  refused = await (await t.request(`/u/${open.name}/groups/AAAAAAAAAAAAAAAA/boards/kills/badge.svg`)).text();
  expect(refused).toContain("<html");
});
afterAll(() => t?.close());

test("a findable player on the board: the badge, the card and the preview of their board address", async () => {
  const res = await badge(open.name);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("image/svg+xml");
  expect(res.headers.get("cache-control")).toBe("no-cache");
  expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
  const svg = await res.text();
  // The hidden player ranks above and counts, unnamed; the one who never opted in does not.
  expect(svg).toContain("#2 of 3 this week");
  expect(svg).toContain("Kills");
  const again = await t.request(`/u/${open.name}/boards/kills/badge.svg`, {
    headers: { "if-none-match": res.headers.get("etag")! },
  });
  expect(again.status).toBe(304);

  const png = await card(open.name);
  expect(png.status).toBe(200);
  expect(png.headers.get("content-type")).toBe("image/png");
  expect(png.headers.get("cache-control")).toBe("no-cache");
  const bytes = new Uint8Array(await png.arrayBuffer());
  expect([...bytes.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
  const same = await t.request(`/u/${open.name}/boards/kills/card.png`, {
    headers: { "if-none-match": png.headers.get("etag")! },
  });
  expect(same.status).toBe(304);

  // The address a player pastes into a chat: the board as anyone sees it, its preview the card.
  const html = await page(open.name);
  expect(html.status).toBe(200);
  expect(html.headers.get("cache-control")).toBe("private, no-store");
  const text = await html.text();
  expect(text).toContain(
    `<meta property="og:image" content="http://localhost:8080/u/${open.name}/boards/kills/card.png">`,
  );
  expect(text).toContain(
    '<meta property="og:description" content="Rank_Open: #2 of 3 this week on tally&#x27;s Kills board.">',
  );
  expect(html.headers.get("x-robots-tag")).toBe("noindex");
  expect(text).not.toContain("(you)");
});

test("the owner's own view says how to share their place, or that their page must be findable first", async () => {
  const own = await (
    await t.request(`/u/${open.name}/boards/kills`, { headers: { cookie: await cookieOf(open) } })
  ).text();
  expect(own).toContain("Share your place");
  expect(own).toContain(
    `[![Kills](http://localhost:8080/u/${open.name}/boards/kills/badge.svg)](http://localhost:8080/u/${open.name}/boards/kills)`,
  );
  const hid = await (
    await t.request(`/u/${hidden.name}/boards/kills`, { headers: { cookie: await cookieOf(hidden) } })
  ).text();
  expect(hid).toContain("only while your page is findable");
  expect(hid).not.toContain("badge.svg");
  // Another window than the badge's: nothing to share there.
  const month = await (
    await t.request(`/u/${open.name}/boards/kills?window=month`, { headers: { cookie: await cookieOf(open) } })
  ).text();
  expect(month).not.toContain("Share your place");
});

test("anyone else: the same not-found page as every refused picture", async () => {
  // Not findable (on the board, unnamed there): no badge, no card, no preview.
  for (const res of [await badge(hidden.name), await card(hidden.name), await page(hidden.name)])
    await expectRefused(res);
  // Findable but never opted in.
  for (const res of [await badge(shy.name), await card(shy.name), await page(shy.name)]) await expectRefused(res);
  // An unknown board, a name nobody has, a malformed name.
  await expectRefused(await badge(open.name, "nope"));
  await expectRefused(await card(open.name, "nope"));
  await expectRefused(await badge("Nobody_Here"));
  await expectRefused(await badge("x".repeat(40)));
  await expectRefused(await card("bad-name!"));
  // Their own page cookie does not make a page that is not findable show its rank.
  const own = await t.request(`/u/${hidden.name}/boards/kills/badge.svg`, {
    headers: { cookie: await cookieOf(hidden) },
  });
  await expectRefused(own);
});

test("opting out takes the badge, the card and the preview away on the next request", async () => {
  expect((await badge(other.name)).status).toBe(200);
  expect((await card(other.name)).status).toBe(200);
  expect((await page(other.name)).status).toBe(200);
  await optIn(t, other, { all: false, groups: [] });
  await expectRefused(await badge(other.name));
  await expectRefused(await card(other.name));
  await expectRefused(await page(other.name));
});

test("the operator's exclusion takes them away on the next request too", async () => {
  expect((await badge(open.name)).status).toBe(200);
  await runBoardsCommand(t, { action: "exclude", name: open.name });
  await expectRefused(await badge(open.name));
  await expectRefused(await card(open.name));
  await runBoardsCommand(t, { action: "include", name: open.name });
});

test("a group rank's card: on the group badge's terms, gone when the member leaves", async () => {
  const lead = await boardPlayer(t, "Rank_Lead", { findable: true });
  const mate = await boardPlayer(t, "Rank_Mate", { findable: false });
  await upload(t, lead, { [DAY]: { "kills.island.hub": 5 } });
  await upload(t, mate, { [DAY]: { "kills.island.hub": 6 } });
  const post = async (p: BoardPlayer, path: string, body: unknown, method = "POST") => {
    const res = await t.request(path, {
      method,
      headers: { ...p.auth, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { id: string; inviteCode: string };
  };
  const made = await post(lead, "/v1/groups", { title: "Card <Club>" });
  await post(mate, "/v1/groups/join", { code: made.inviteCode });
  const groupCard = (p: BoardPlayer, cookie?: string) =>
    t.request(`/u/${p.name}/groups/${made.id}/boards/kills/card.png`, { headers: cookie ? { cookie } : {} });
  // Private: the member's own through their cookie, never a stranger's, even for a findable member.
  const own = await groupCard(mate, await cookieOf(mate));
  expect(own.status).toBe(200);
  expect(own.headers.get("content-type")).toBe("image/png");
  expect(own.headers.get("cache-control")).toBe("no-store");
  await expectRefused(await groupCard(lead));
  await expectRefused(await groupCard(mate, await cookieOf(lead)));
  // Public: anyone's for a findable member; still nobody's for a member whose page is not findable.
  await post(lead, `/v1/groups/${made.id}`, { public: true }, "PATCH");
  const pub = await groupCard(lead);
  expect(pub.status).toBe(200);
  expect(pub.headers.get("cache-control")).toBe("no-cache");
  await expectRefused(await groupCard(mate));
  // Not a member: refused; leaving takes it away at once.
  await expectRefused(await groupCard(open));
  await optIn(t, lead, { all: false, groups: [] });
  await expectRefused(await groupCard(lead));
});

test("a rank's badge and card count against the cards' limit per address, once a request", async () => {
  const small = await testApp({ settings: { devSignin: true, cardRateLimit: 3 }, now: "2026-11-18T12:00:00Z" });
  try {
    const p = await boardPlayer(small, "Rank_Limit", { findable: true });
    await upload(small, p, { [DAY]: { "kills.island.hub": 3 } });
    const statuses: number[] = [];
    for (const path of ["badge.svg", "card.png", "badge.svg", "card.png"])
      statuses.push((await small.request(`/u/${p.name}/boards/kills/${path}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  } finally {
    await small.close();
  }
});
