// Determinism (contract 1.2): the fixture uploads fold to the bytes in fixtures/totals, whether sent
// in order, shuffled (where the contract makes order irrelevant) or twice.
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { testApp, type TestApp } from "../support/app.ts";
import {
  FIXTURE_PROFILE,
  fixtureAccount,
  fixtureCatalogue,
  fixturesDir,
  fixtureUploads,
  sendFixtures,
  totalsReads,
} from "../support/fixtures.ts";
import { chartSeries } from "../../src/stats/fold.ts";
import type { Uploader } from "../support/uploads.ts";

const opened: TestApp[] = [];
// Each test's databases close when it ends, so memory stays that of one test.
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});
const open = async () => {
  const t = await testApp({
    settings: { devSignin: true, catalogueFile: fixtureCatalogue },
    now: fixtureAccount.signedInAt,
  });
  opened.push(t);
  return t;
};
const read = async (t: TestApp, u: Uploader) => {
  const out: Record<string, string> = {};
  for (const [file, path] of Object.entries(totalsReads))
    out[file] = JSON.stringify(await (await t.request(path, { headers: u.auth })).json(), null, 2) + "\n";
  return out;
};
const expected = Object.fromEntries(
  Object.keys(totalsReads).map((file) => [file, readFileSync(join(fixturesDir, "totals", file), "utf8")]),
);

test("in order, the fixtures fold to the expected bytes; sent again, nothing changes", async () => {
  const t = await open();
  const { uploader } = await sendFixtures(t);
  expect(await read(t, uploader)).toEqual(expected);
  for (const { body } of fixtureUploads) await uploader.send(JSON.parse(body));
  expect(await read(t, uploader)).toEqual(expected);
}, 30_000);

test.each([7, 42, 1234])(
  "shuffled (seed %d), the uploads before the consent change fold to the same bytes",
  async (seed) => {
    const t = await open();
    const reorder = (names: string[]) => {
      // The consent change and the replay keep their places; everything before them is shuffled.
      const head = names.filter((n) => n < "11");
      let s = seed;
      for (let i = head.length - 1; i > 0; i--) {
        s = (s * 1103515245 + 12345) % 2 ** 31;
        const j = s % (i + 1);
        [head[i], head[j]] = [head[j]!, head[i]!];
      }
      return [...head, ...names.filter((n) => n >= "11")];
    };
    const { uploader } = await sendFixtures(t, reorder);
    expect(await read(t, uploader)).toEqual(expected);
  },
);

test("the statistics page's charts draw the same per-day values (a gauge's low and high too) as the expected days", async () => {
  const t = await open();
  const { uploader } = await sendFixtures(t);
  const account = "0".repeat(32);
  const charts = await chartSeries(
    { db: t.db, catalogue: t.catalogue },
    uploader.uuid,
    [FIXTURE_PROFILE, account],
    "2026-05-01",
    "2026-06-30",
  );
  // days.json lists values by day; the charts hold them by key.
  const byKey = (file: string) => {
    type Point = { day: string; value: number; low?: number; high?: number };
    const out = new Map<string, Point[]>();
    const doc = JSON.parse(expected[file]!) as { days: { day: string; values: ({ key: string } & Point)[] }[] };
    // A gauge's day carries its low and high, as in the expected days.
    for (const d of doc.days)
      for (const { key, ...v } of d.values) out.set(key, [...(out.get(key) ?? []), { ...v, day: d.day }]);
    return out;
  };
  for (const [profile, file] of [
    [FIXTURE_PROFILE, "days.json"],
    [account, "account-days.json"],
  ] as const) {
    const want = byKey(file);
    expect(want.size).toBeGreaterThan(0);
    expect(Object.fromEntries(charts.get(profile)!)).toEqual(Object.fromEntries(want));
  }
});
