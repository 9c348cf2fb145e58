// Periods, the calendar, charts and rates of a statistics page in a real browser
// (browser-world.ts: the app, its seeded players and the checks every page gets), imported by its
// .browser.test.ts when chromium is there (test/support/browser.ts).
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { seedPeriodPlayer, LONG_ITEM, PERIOD_OFFSETS, TODAY, type Seeded } from "./seed.ts";
import { addDays } from "../../src/wire/day.ts";
import { formatDay } from "../../src/web/format.ts";
import { artifacts, expectNoSideways, pagesInChromium, visit, world } from "./browser-world.ts";
import { pictured, VIEWS } from "../support/browser.ts";

pagesInChromium();
let env: typeof world.env;
let base: string;
beforeAll(() => {
  ({ env, base } = world);
});

/** The long item id as a page names it (no item list holds it: its words in title case). */
const LONG_ITEM_WORDS = "Enchanted Golden Carrot Of The Mountain King Supreme Edition";

describe("periods, the calendar, charts and rates", () => {
  let pat: Seeded;
  beforeAll(async () => {
    pat = await seedPeriodPlayer(env.t, "Period_Pat");
  });
  // What the seed put on each day (see seedPeriodPlayer), to check the page's sums against.
  const days = PERIOD_OFFSETS.map((o, i) => ({ day: addDays(TODAY, o), mined: 600 + ((i * 37) % 23) * 60 }));
  const mined = (from: string, to: string) =>
    days.filter((d) => d.day >= from && d.day <= to).reduce((n, d) => n + d.mined, 0);
  const number = (n: number) => n.toLocaleString("en-GB");

  for (const width of [1280, 390]) {
    test(`the period view, the calendar, the charts and the rates at ${width} px`, async () => {
      for (const scheme of ["light", "dark"] as const) {
        const v = await visit(`/u/${pat.name}?period=month&range=30`, scheme, undefined, width);
        const shot = (name: string) => join(artifacts, `${name}-${width}-${scheme}.png`);
        try {
          const { page } = v;
          expect(v.status).toBe(200);
          for (const url of v.requests) expect(url.startsWith(base + "/")).toBe(true);
          expect(v.errors).toEqual([]);
          // Nothing is wider than the screen.
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

          // Periods: this month so far (1 June) against the same stretch of May (1 May), by kind: the
          // headline figures' table on the statistics page, every figure's on its group's list.
          const table = page.locator("table.periods").first();
          expect(await table.getAttribute("data-period")).toBe("month");
          expect(await page.locator("#periods-h ~ p").first().innerText()).toContain(
            "This month so far (1 June 2026) against the same days of last month (1 May 2026), like with like",
          );
          expect(await page.locator('nav[aria-label="Period"] a[aria-current="page"]').innerText()).toBe("Month");
          await page
            .locator("#periods-h")
            .locator("xpath=..")
            .screenshot({ path: shot("periods") });

          // The calendar: the seeded days are active cells with their tooltips; the other days of 53
          // weeks up to today are one shared path of empty cells.
          const calendar = page.locator("figure.calendar svg");
          expect(await calendar.getAttribute("data-active")).toBe(String(PERIOD_OFFSETS.length));
          expect(await calendar.locator("rect[data-day]").count()).toBe(PERIOD_OFFSETS.length);
          expect(await calendar.locator(`rect[data-day="${TODAY}"] title`).textContent()).toBe(
            `${formatDay(TODAY)}: 5 statistics recorded`,
          );
          const gap = addDays(TODAY, -44 + 3);
          expect(await calendar.locator(`rect[data-day="${gap}"]`).count()).toBe(0);
          expect(((await calendar.locator("path.c0").getAttribute("d")) ?? "").split("M").length - 1).toBe(
            52 * 7 + 1 - PERIOD_OFFSETS.length,
          );
          await page.locator("figure.calendar").screenshot({ path: shot("calendar") });
          const stats = page.url();
          const list = async (group: string) => {
            await page.goto(`${stats}&scope=p&group=${group}`);
            expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          };

          // A group's list: lifetime, this month, the change ("new": 1 May had nothing recorded).
          await list("mining");
          const row = (key: string) => page.locator(`table.key-list tr[data-key="${key}"] td`);
          const june = mined("2026-06-01", "2026-06-01");
          expect((await row("mining.blocks.total").allInnerTexts()).slice(1)).toEqual([number(june), "new"]);
          // Charts: the count as bars, the purse as a line in its low-high band, the best hit as points.
          const chart = (label: string) =>
            page.locator(".figures li", { has: page.locator(".label", { hasText: new RegExp(`^${label}$`) }) }).first();
          const bars = chart("Blocks mined").locator("svg");
          expect(((await bars.locator("path.bars").getAttribute("d")) ?? "").split("M").length - 1).toBe(
            days.filter((d) => d.day >= addDays(TODAY, -29)).length,
          );
          await chart("Blocks mined").screenshot({ path: shot("chart-count") });
          await list("farming");
          expect((await row("farming.purse.coins").allInnerTexts())[1]).toBe(
            `${number(1_000_000 + (PERIOD_OFFSETS.length - 1) * 15_000)} coins`,
          );
          const purse = chart("Purse").locator("svg");
          expect(await purse.getAttribute("data-kind")).toBe("gauge");
          expect(await purse.locator("path.band").count()).toBeGreaterThan(0);
          const i = PERIOD_OFFSETS.length - 1;
          expect(await purse.locator("g.days path title").last().textContent()).toBe(
            `${formatDay(TODAY)}: ${number(1_000_000 + i * 15_000)} coins (low ${number(1_000_000 + i * 15_000 - 60_000)} coins, high ${number(1_000_000 + i * 15_000 + 40_000)} coins)`,
          );
          await purse.screenshot({ path: shot("chart-gauge") });
          await list("kills");
          expect(await chart("Biggest hit").locator("svg").getAttribute("data-kind")).toBe("max");
          const points = (await chart("Biggest hit").locator("svg path.points").getAttribute("d")) ?? "";
          expect(points.split("M").length - 1).toBe(days.filter((d) => d.day >= addDays(TODAY, -29)).length);
          await chart("Biggest hit").screenshot({ path: shot("chart-max") });
          await list("loot");
          // The long item id wraps inside the list rather than widen the page.
          const long = page.locator(`table.key-list tr[data-key="loot.item.${LONG_ITEM}"] th`);
          expect((await long.boundingBox())!.width).toBeLessThan(width);
          await page.goto(stats);

          // Rates: mining 6 000 blocks in 3 hours; a dungeon run of 50 minutes with 2 drops and 100 000 coins spent.
          const rates = page.locator("table.rates");
          expect(await rates.locator('tr[data-activity="mining"] td').allInnerTexts()).toEqual([
            "3 h 0 min\n2 sessions",
            "Blocks mined: 2,000 / h",
            "none",
          ]);
          expect(await rates.locator('tr[data-activity="dungeon"] td').allInnerTexts()).toEqual([
            "50 min\n1 session",
            `Purse: 300,000 coins / h\nNecron Handle: 2.4 / h\n${LONG_ITEM_WORDS}: 1.2 / h`,
            "Purse: 120,000 coins / h",
          ]);
          // The latest session: a short table of gains and costs with rates per hour, and net coins an hour.
          const session = page.locator("li.session").first();
          expect(await session.locator("h3").innerText()).toContain("Dungeon");
          expect(await session.locator("h3 .length").innerText()).toBe("50 min");
          expect(await session.locator("tbody tr").allInnerTexts()).toEqual([
            "Necron Handle\t2\t2.4 / h",
            `${LONG_ITEM_WORDS}\t1\t1.2 / h`,
            "Purse\t250,000 coins\t300,000 coins / h",
            "Purse spent\t\u2212100,000 coins\t\u2212120,000 coins / h",
          ]);
          expect(await session.locator("tfoot tr").innerText()).toBe("Net coins\t+150,000 coins\t+180,000 coins / h");
          await session.screenshot({ path: shot("session") });
          await page
            .locator("#rates-h")
            .locator("xpath=..")
            .screenshot({ path: shot("rates") });
          if (pictured(scheme, width)) await page.screenshot({ path: shot("stats-periods"), fullPage: true });
        } finally {
          await v.close();
        }
      }
    });
  }

  test("on a Wednesday, the week so far against last week's Monday to Wednesday", async () => {
    env.t.clock.advance(2 * 86_400_000); // Wednesday 3 June
    try {
      for (const [scheme, width] of VIEWS) {
        const v = await visit(`/u/${pat.name}`, scheme, undefined, width);
        try {
          expect(v.status).toBe(200);
          expect(v.errors).toEqual([]);
          await expectNoSideways(v.page);
          const table = v.page.locator("table.periods").first();
          expect(await table.getAttribute("data-period")).toBe("week");
          expect(await v.page.locator("#periods-h ~ p").first().innerText()).toContain(
            "This week so far (1 June 2026 to 3 June 2026) against the same days of last week (25 May 2026 to 27 May 2026), like with like",
          );
          expect(await table.locator("thead th").nth(2).innerText()).toBe("Last week (same days)");
          // Nothing was recorded on 2 and 3 June: this week is 1 June's, against 25 to 27 May.
          expect((await table.locator('tr[data-key="mining.blocks.total"] td').allInnerTexts()).slice(0, 2)).toEqual([
            number(mined("2026-06-01", "2026-06-03")),
            number(mined("2026-05-25", "2026-05-27")),
          ]);
          // Better and worse: by kind (a lower fastest time is better), in the theme's colour and in words.
          const changes = await v.page.evaluate(() => {
            const colourOf = (value: string) => {
              const probe = document.body.appendChild(document.createElement("span"));
              probe.style.color = value;
              const c = getComputedStyle(probe).color;
              probe.remove();
              return c;
            };
            const better = colourOf("var(--better)");
            const worse = colourOf("var(--worse)");
            return Array.from(document.querySelectorAll("table.periods tr[data-key]")).map((tr) => {
              const cells = Array.from(tr.querySelectorAll("td"));
              const td = tr.querySelector("td.change")!;
              const judged = td.classList.contains("better")
                ? "better"
                : td.classList.contains("worse")
                  ? "worse"
                  : null;
              const colour = getComputedStyle(td).color;
              return {
                key: tr.getAttribute("data-key")!,
                judged,
                cue: td.querySelector(".cue")?.textContent ?? null,
                coloured: judged === null ? null : colour === (judged === "better" ? better : worse),
                // "4 min 36 s" as seconds (a count's digits read as one number).
                values: cells.slice(0, 2).map((c) => {
                  const text = c.textContent ?? "";
                  const units: Record<string, number> = { d: 86_400, h: 3600, min: 60, s: 1, ms: 0.001 };
                  const parts = [...text.matchAll(/([\d.,]+)\s*(d|h|min|ms|s)\b/g)];
                  return parts.length === 0
                    ? Number(text.replace(/[^0-9]/g, ""))
                    : parts.reduce((n, m) => n + Number(m[1]!.replace(/,/g, "")) * units[m[2]!]!, 0);
                }),
                distinct: better !== worse,
              };
            });
          });
          expect(changes.filter((c) => c.judged !== null).length).toBeGreaterThan(0);
          for (const c of changes) {
            expect(c.distinct).toBe(true);
            if (c.judged === null) expect(c.cue).toBeNull();
            else
              expect({ key: c.key, cue: c.cue, coloured: c.coloured }).toEqual({
                key: c.key,
                cue: c.judged === "better" ? "\u25b2 better" : "\u25bc worse",
                coloured: true,
              });
          }
          // The fastest finish: lower this week than on last week's same days is better.
          const fastest = changes.find((c) => c.key === "dungeon.best_split.F7.finish");
          if (fastest?.judged)
            expect(fastest.judged).toBe(fastest.values[0]! < fastest.values[1]! ? "better" : "worse");
          // Its group's list has every figure of the group, the change in the same colours and words:
          // a fall in time ("\u22126 s") is better, a rise worse.
          const listed = await v.page.context().newPage();
          try {
            await listed.goto(`${base}/u/${pat.name}?scope=p&group=dungeons`);
            const cell = listed.locator('table.key-list tr[data-key="dungeon.best_split.F7.finish"] td.change');
            const text = await cell.innerText();
            const judged = (await cell.getAttribute("class"))!.split(" ").find((c) => c === "better" || c === "worse");
            expect(judged).toBeDefined();
            expect({ text, judged }).toEqual({ text, judged: text.startsWith("\u2212") ? "better" : "worse" });
            // Coloured as in the period table, not the text's own colour.
            const coloured = await cell.evaluate((td, j) => {
              const probe = document.body.appendChild(document.createElement("span"));
              probe.style.color = `var(--${j})`;
              const want = getComputedStyle(probe).color;
              probe.remove();
              return getComputedStyle(td).color === want;
            }, judged!);
            expect(coloured).toBe(true);
          } finally {
            await listed.close();
          }
          await v.page
            .locator("#periods-h")
            .locator("xpath=..")
            .screenshot({ path: join(artifacts, `periods-wednesday-${width}-${scheme}.png`) });
        } finally {
          await v.close();
        }
      }
    } finally {
      env.t.clock.advance(-2 * 86_400_000);
    }
  });
});
