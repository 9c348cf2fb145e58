// Boundary: what a stranger's repeated requests for one account's pages spend (issue 40): the kept
// copy of a page is keyed by the parameters the page uses and nothing else of the query string;
// each account's renders spend a budget per minute (PAGE_RENDER_MS_PER_ACCOUNT_PER_MINUTE), whoever
// asks, and kept copies cost none of it; an account holds at most STATS_MAX_PROFILES_PER_ACCOUNT
// profiles, so no request can make a page list thousands.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { envelope, uploader } from "../support/uploads.ts";
import { daysBack, fill, findablePlayer, LEADING, pageApps, TODAY } from "../support/page-world.ts";

setDefaultTimeout(120_000);

const app = pageApps();

describe("the kept copy of a page", () => {
  test("is keyed by the parameters the page uses: other query strings are the same page", async () => {
    // With the clock standing still each render costs 1 ms of a budget of 2: a third render is refused.
    const t = await app({ pageRenderBudgetMs: 2 });
    await fill(t, await findablePlayer(t, "Steady"), LEADING.slice(0, 3), daysBack(2, 0));
    const first = await t.request("/u/Steady");
    expect(first.status).toBe(200);
    const html = await first.text();
    for (const query of ["?a=1", "?a=2&b=3", `?profile=${"f".repeat(32)}`, "?range=7", "?period=decade", "?x=<y>"]) {
      const res = await t.request(`/u/Steady${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 200 });
      expect(await res.text()).toBe(html);
    }
    // A group that does not exist is one more page (answered 404), kept as such.
    for (let i = 0; i < 3; i++) expect((await t.request("/u/Steady?group=nothing-here")).status).toBe(404);
    // Two renders spent (the page and the missing group): a new page is over the budget.
    const over = await t.request("/u/Steady?period=month");
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("an account's render budget", () => {
  test("is spent by anyone's renders of its pages and badges, refuses past it, and refills the next minute", async () => {
    const t = await app({ pageRenderBudgetMs: 3 });
    await fill(t, await findablePlayer(t, "Budgeted"), LEADING.slice(0, 3), daysBack(2, 0));
    await fill(t, await findablePlayer(t, "Bystander"), LEADING.slice(0, 3), daysBack(2, 0));
    const status = async (path: string) => (await t.request(path)).status;
    expect(await status("/u/Budgeted?period=week")).toBe(200);
    expect(await status("/u/Budgeted?period=month")).toBe(200);
    expect(await status(`/u/Budgeted/badge/${LEADING[0]}.svg`)).toBe(200);
    expect(await status("/u/Budgeted?period=year")).toBe(429);
    expect(await status(`/u/Budgeted/badge/${LEADING[1]}.svg`)).toBe(429);
    // Kept copies cost nothing; another account's pages have their own budget.
    expect(await status("/u/Budgeted?period=month")).toBe(200);
    expect(await status(`/u/Budgeted/badge/${LEADING[0]}.svg`)).toBe(200);
    expect(await status("/u/Bystander?period=year")).toBe(200);
    t.clock.advance(60_000);
    expect(await status("/u/Budgeted?period=year")).toBe(200);
  });
});

describe("profiles per account", () => {
  test("an upload for one more profile than STATS_MAX_PROFILES_PER_ACCOUNT is refused and stores nothing", async () => {
    const t = await app({ statsMaxProfilesPerAccount: 2 });
    const p = await uploader(t, { zone: "UTC" });
    const profiles = ["1", "2", "3"].map((c) => c.repeat(32));
    const upload = (profileId: string, v: number) =>
      p.send(
        envelope(t, {
          zone: { id: "UTC" },
          profile: { id: profileId, cuteName: "Kiwi" },
          counters: [{ profileId, scope: "day", day: TODAY, rows: [{ k: "mining.cap.count", v }] }],
        }),
      );
    expect((await upload(profiles[0]!, 1)).status).toBe(200);
    expect((await upload(profiles[1]!, 2)).status).toBe(200);
    const refused = await upload(profiles[2]!, 3);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("too_many_profiles");
    const held = (await (await t.request("/v1/stats/profiles", { headers: p.auth })).json()) as {
      profiles: { id: string }[];
    };
    expect(held.profiles.map((x) => x.id).sort()).toEqual([profiles[0]!, profiles[1]!]);
    const totals = await t.request(`/v1/stats/totals?profile=${profiles[2]}`, { headers: p.auth });
    expect(((await totals.json()) as { profile: { keys: unknown[] } }).profile.keys).toEqual([]);
    // The profiles it holds still upload.
    expect((await upload(profiles[1]!, 4)).status).toBe(200);
  });
});
