// Boundary: one account's distinct keys (issue 22, finding 2). Keys such as loot.item.<ITEM_ID> are
// open-ended: a profile holds at most STATS_MAX_KEYS_PER_PROFILE keys (rows of further new keys are
// refused too_many_keys in the answer, the rest stored); the statistics page charts each group's
// leading figures whatever the number of keys and lists the rest a page at a time; a stranger's
// page is kept (ETag, 304) until the player uploads again, and rate-limited per address.
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE, ACCOUNT, type Uploader } from "../support/uploads.ts";
import { LIST_PAGE_SIZE, SHOWN_PER_GROUP } from "../../src/web/key-list.ts";

setDefaultTimeout(120_000);

// One database for the file (a fresh one costs seconds); each test builds its own app (settings,
// clock) over it and signs in accounts of its own, under names of its own.
let file: TestApp;
beforeAll(async () => {
  file = await testApp();
});
afterAll(() => file.close());
const opened: TestApp[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

async function app(
  settings: NonNullable<Parameters<typeof testApp>[0]>["settings"] = {},
  now = "2026-06-01T12:00:00Z",
) {
  const t = await testApp({ database: file.database, settings: { devSignin: true, ...settings }, now });
  opened.push(t);
  return t;
}

const TODAY = "2026-06-01";
const items = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `loot.item.ITEM_${String(from + i).padStart(5, "0")}`);

function upload(t: TestApp, keys: string[], opts: { profileId?: string; value?: number } = {}) {
  return envelope(t, {
    zone: { id: "UTC" },
    counters: [
      {
        profileId: opts.profileId ?? PROFILE,
        scope: "day",
        day: TODAY,
        rows: keys.map((k, i) => ({ k, v: (opts.value ?? 1) + i })),
      },
    ],
  });
}

async function send(p: Uploader, env: unknown) {
  const res = await p.send(env);
  expect(res.status).toBe(200);
  return (await res.json()) as {
    warnings: { code: string; message: string; key?: string }[];
    refused: { day: string; code: string; rows: number }[];
    applied: { rows: number };
  };
}

async function findable(t: TestApp, name: string) {
  const p = await uploader(t, { name, zone: "UTC" });
  const { settingsVersion } = (await (await t.request("/v1/stats/settings", { headers: p.auth })).json()) as {
    settingsVersion: number;
  };
  const res = await t.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { ...p.auth, "content-type": "application/json" },
    body: JSON.stringify({ settingsVersion, findable: true }),
  });
  expect(res.status).toBe(200);
  return p;
}

describe("the cap of distinct keys per profile", () => {
  test("keys new to a profile past the cap are refused too_many_keys, named with the cap; the rest is stored", async () => {
    const t = await app({ statsMaxKeysPerProfile: 10 });
    const p = await uploader(t, { zone: "UTC" });
    expect((await send(p, upload(t, items(8)))).applied.rows).toBe(8);

    // Two keys it holds and five new: room for two of them (the first in key order).
    const answer = await send(p, upload(t, [...items(2), ...items(5, 100)], { value: 50 }));
    expect(answer.applied.rows).toBe(4);
    expect(answer.refused).toEqual([{ day: TODAY, code: "too_many_keys", rows: 3 }]);
    const warning = answer.warnings.find((w) => w.code === "too_many_keys")!;
    expect(warning.key).toBe("loot.item.ITEM_00102");
    expect(warning.message).toContain("at most 10 distinct keys");
    expect(warning.message).toContain("STATS_MAX_KEYS_PER_PROFILE");

    const totals = (await (await t.request(`/v1/stats/totals?profile=${PROFILE}`, { headers: p.auth })).json()) as {
      profile: { keys: { key: string; lifetime: { value: number } }[] };
    };
    const keys = totals.profile.keys.map((k) => k.key);
    expect(keys).toHaveLength(10);
    expect(keys).toContain("loot.item.ITEM_00101");
    expect(keys).not.toContain("loot.item.ITEM_00102");
    // A key the profile holds is never refused, even at the cap: its new value is stored.
    expect(totals.profile.keys.find((k) => k.key === "loot.item.ITEM_00000")!.lifetime.value).toBe(50);
    const again = await send(p, upload(t, [...items(8), ...items(2, 100)], { value: 7 }));
    expect(again.refused).toEqual([]);
    expect(again.applied.rows).toBe(10);
  });

  test("the account scope has its own cap, and a refused key is never pinned", async () => {
    const t = await app({ statsMaxKeysPerProfile: 10 });
    const p = await uploader(t, { zone: "UTC" });
    await send(p, upload(t, items(10)));
    const answer = await send(p, upload(t, ["loot.item.NEVER_PINNED"]));
    expect(answer.refused).toEqual([{ day: TODAY, code: "too_many_keys", rows: 1 }]);
    const other = await uploader(t, { zone: "UTC" });
    // Another account's profile starts with room of its own.
    expect((await send(other, upload(t, items(10, 500)))).refused).toEqual([]);
    // The account scope (the all-zero profile) counts apart from the profile.
    const scoped = await send(p, upload(t, ["tally.playtime.total"], { profileId: ACCOUNT }));
    expect(scoped.refused).toEqual([]);
  });

  test("a key set the profile held whole, sent again after erasure and other keys, is counted again", async () => {
    // The usual upload repeats a key set the account holds and skips the cap's probes (the set's
    // digest is kept with the account's mark); erasure must forget it, or the set would come back
    // past the cap.
    const t = await app({ statsMaxKeysPerProfile: 10 });
    const p = await uploader(t, { zone: "UTC" });
    expect((await send(p, upload(t, items(8)))).applied.rows).toBe(8);
    expect((await send(p, upload(t, items(8), { value: 2 }))).refused).toEqual([]);
    expect((await t.request("/v1/stats/data", { method: "DELETE", headers: p.auth })).status).toBe(200);
    expect((await send(p, upload(t, items(8, 100)))).refused).toEqual([]);
    const back = await send(p, upload(t, items(8), { value: 3 }));
    expect(back.refused).toEqual([{ day: TODAY, code: "too_many_keys", rows: 6 }]);
    expect(back.applied.rows).toBe(2);
    // The set refused in part is not kept as held: sent again, it is refused again.
    expect((await send(p, upload(t, items(8), { value: 4 }))).refused).toEqual([
      { day: TODAY, code: "too_many_keys", rows: 6 },
    ]);
  });

  test("the default cap is 10 000", async () => {
    const t = await app();
    expect(t.config.statsMaxKeysPerProfile).toBe(10_000);
  });
});

describe("the statistics page with many keys", () => {
  test("shows a group's few largest and charts none, whatever the number of keys; the rest is a paged list that charts five", async () => {
    const t = await app();
    const few = await findable(t, "Few_Keys");
    await send(few, upload(t, items(20)));
    const many = await findable(t, "Many_Keys");
    await send(many, upload(t, items(450)));

    const pageOf = async (path: string) => {
      const res = await t.request(path);
      expect(res.status).toBe(200);
      return res.text();
    };
    const small = await pageOf("/u/Few_Keys");
    const large = await pageOf("/u/Many_Keys");
    const charts = (html: string) => (html.match(/<figure class="chart"/g) ?? []).length;
    const rows = (html: string) => (html.match(/<tr data-key=/g) ?? []).length;
    expect(charts(small)).toBe(0);
    expect(charts(large)).toBe(0);
    // The page does not grow with the keys: 450 keys weigh what 20 do, give or take the labels.
    expect(large.length).toBeLessThan(small.length * 1.2);
    // The figures shown are the largest: ITEM_00449 has the greatest value.
    expect(large).toContain('data-key="loot.item.ITEM_00449"');
    expect(large).not.toContain('data-key="loot.item.ITEM_00000"');
    expect(large).toContain('Loot <span class="count">450 figures</span>');

    const link = large.match(/href="(\/u\/Many_Keys\?[^"#]*group=loot[^"#]*)#list"/)![1]!.replaceAll("&amp;", "&");
    expect(large).toContain("All 450 figures of Loot");
    const first = await pageOf(link);
    // The list's first page charts the group's few largest; the list itself is a page of names.
    expect(charts(first)).toBe(SHOWN_PER_GROUP);
    expect(rows(first)).toBe(LIST_PAGE_SIZE);
    expect(first).toContain('data-key="loot.item.ITEM_00000"');
    const pages = Math.ceil(450 / LIST_PAGE_SIZE);
    const last = await pageOf(`${link}&page=${pages}`);
    expect(charts(last)).toBe(0);
    expect(rows(last)).toBe(450 - (pages - 1) * LIST_PAGE_SIZE);
    expect(last).toContain('data-key="loot.item.ITEM_00449"');
    // A group nobody has is a page nobody has.
    expect((await t.request("/u/Many_Keys?scope=p&group=nothing-here")).status).toBe(404);
  });
});

describe("a stranger's statistics page", () => {
  test("answers 304 to its ETag until the player uploads again", async () => {
    const t = await app();
    const p = await findable(t, "Etag_Player");
    await send(p, upload(t, items(3)));
    const first = await t.request("/u/Etag_Player");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const same = await t.request("/u/Etag_Player", { headers: { "if-none-match": etag } });
    expect(same.status).toBe(304);
    expect(await same.text()).toBe("");

    t.clock.advance(1000);
    await send(p, upload(t, items(3), { value: 1000 }));
    const changed = await t.request("/u/Etag_Player", { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(await changed.text()).toContain("1,002");

    // Erased statistics are never answered from the kept copy.
    expect((await t.request("/v1/stats/data", { method: "DELETE", headers: p.auth })).status).toBe(200);
    const erased = await (await t.request("/u/Etag_Player")).text();
    expect(erased).not.toContain("1,002");
    expect(erased).not.toContain('data-key="loot.item.ITEM_00000"');
  });

  test("is rate-limited per address (PAGE_RATE_LIMIT_PER_MINUTE)", async () => {
    // An hour of its own: the other tests' page requests (all from this process's one address) are
    // counted in the minutes of noon, not in this one.
    const t = await app({ pageRateLimit: 3 }, "2026-06-01T13:00:00Z");
    const p = await findable(t, "Limited");
    await send(p, upload(t, items(2)));
    for (let i = 0; i < 3; i++) expect((await t.request("/u/Limited")).status).toBe(200);
    const refused = await t.request("/u/Limited");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await t.request("/s/abcdefghijklmnopqrstuvwx")).status).toBe(429);
    t.clock.advance(60_000);
    expect((await t.request("/u/Limited")).status).toBe(200);
  });
});

describe("GET /v1/stats/days with many keys", () => {
  test("answers a window of whole days at a time, bounded in values, and the windows cover the range once", async () => {
    const t = await app();
    const p = await uploader(t, { zone: "UTC" });
    const days = ["2026-04-05", "2026-05-01", "2026-06-01"];
    for (const day of days) {
      const env = upload(t, items(2000)) as { counters: { day: string }[] };
      env.counters[0]!.day = day;
      expect((await send(p, env)).applied.rows).toBe(2000);
    }
    type Answer = { from: string; to: string; next: string | null; days: { day: string; values: unknown[] }[] };
    const seen: Answer["days"] = [];
    const windows: Answer[] = [];
    let from: string | null = "2026-04-03";
    while (from) {
      const res = await t.request(`/v1/stats/days?profile=${PROFILE}&from=${from}&to=${TODAY}`, { headers: p.auth });
      expect(res.status).toBe(200);
      const answer = (await res.json()) as Answer;
      expect(answer.from).toBe(from);
      expect(answer.days.reduce((n, d) => n + d.values.length, 0)).toBeLessThanOrEqual(50_000);
      for (const d of answer.days) expect(d.day >= answer.from && d.day <= answer.to).toBe(true);
      windows.push(answer);
      seen.push(...answer.days);
      from = answer.next;
      expect(windows.length).toBeLessThan(10);
    }
    // 2 000 keys: 25 days a window, so 60 days are three answers, the last one ending on the range's end.
    expect(windows.map((w) => [w.from, w.to])).toEqual([
      ["2026-04-03", "2026-04-27"],
      ["2026-04-28", "2026-05-22"],
      ["2026-05-23", TODAY],
    ]);
    expect(seen.map((d) => [d.day, d.values.length])).toEqual(days.map((d) => [d, 2000]));
  });
});
