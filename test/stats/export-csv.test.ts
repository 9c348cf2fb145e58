// The CSV export (issue 16): read back by a CSV parser, it holds exactly the JSON export's day
// rows with their installs folded by kind (the fold written out here, not the service's), each
// with its key's kind and unit; RFC 4180 quoting; streamed in pages; the owner's page links it.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
// A fresh database and its uploads take seconds on a busy machine.
setDefaultTimeout(30_000);
import { parse } from "csv-parse/sync";
import { testApp, type TestApp } from "../support/app.ts";
import { fixtureAccount, fixtureCatalogue, sendFixtures } from "../support/fixtures.ts";
import type { Uploader } from "../support/uploads.ts";
import { CSV_COLUMNS, csvField, csvStream } from "../../src/stats/export-csv.ts";
import { pageLink } from "../web/seed.ts";

let t: TestApp;
let u: Uploader;
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, catalogueFile: fixtureCatalogue }, now: fixtureAccount.signedInAt });
  u = (await sendFixtures(t)).uploader;
});
afterAll(() => t.close());

type DayRow = {
  profileId: string;
  key: string;
  day: string;
  installId: string;
  value: number;
  low: number | null;
  high: number | null;
  sentAt: number;
};

test("the CSV read back equals the JSON export's day rows, installs folded by kind", async () => {
  const jsonRes = await t.request("/v1/stats/export", { headers: u.auth });
  const jsonText = await jsonRes.text();
  const doc = JSON.parse(jsonText) as { dayRows: DayRow[]; profiles: { profileId: string; cuteName: string }[] };
  const totals = (await (
    await t.request(`/v1/stats/totals?profile=${doc.profiles[0]!.profileId}`, { headers: u.auth })
  ).json()) as {
    profile: { keys: { key: string; kind: string; unit: string }[] };
    account: { keys: { key: string; kind: string; unit: string }[] };
  };
  const keyInfo = new Map([...totals.profile.keys, ...totals.account.keys].map((k) => [k.key, k]));

  const res = await t.request("/v1/stats/export.csv", { headers: u.auth });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/csv");
  expect(res.headers.get("content-disposition")).toBe(`attachment; filename="tally-days-${u.uuid}.csv"`);
  const csvText = await res.text();
  expect(csvText.endsWith("\r\n")).toBe(true);
  const records = parse(csvText, { columns: true, skip_empty_lines: false }) as Record<string, string>[];
  expect(Object.keys(records[0]!)).toEqual([...CSV_COLUMNS]);

  // The JSON export's install rows, folded by kind per (profile, key, day): count sums, max and min the
  // extreme, gauge the reading with the later sentAt (ties: the greater installId), its low and high the day's.
  const groups = new Map<string, DayRow[]>();
  for (const r of doc.dayRows) {
    const id = `${r.profileId}|${r.key}|${r.day}`;
    groups.set(id, [...(groups.get(id) ?? []), r]);
  }
  const names = new Map(doc.profiles.map((p) => [p.profileId, p.cuteName]));
  const want = [...groups.values()]
    .map((rows) => {
      const { profileId, key, day } = rows[0]!;
      const { kind, unit } = keyInfo.get(key)!;
      const values = rows.map((r) => r.value);
      const latest = [...rows].sort((a, b) => b.sentAt - a.sentAt || (a.installId < b.installId ? 1 : -1))[0]!;
      const value =
        kind === "count"
          ? values.reduce((a, b) => a + b, 0)
          : kind === "max"
            ? Math.max(...values)
            : kind === "min"
              ? Math.min(...values)
              : latest.value;
      const gauge = kind === "gauge";
      return {
        profile: profileId,
        profile_name: names.get(profileId) ?? "",
        key,
        kind,
        unit,
        day,
        value: String(value),
        low: gauge ? String(Math.min(...rows.map((r) => r.low!))) : "",
        high: gauge ? String(Math.max(...rows.map((r) => r.high!))) : "",
      };
    })
    .sort((a, b) => (a.profile + a.key + a.day < b.profile + b.key + b.day ? -1 : 1));
  expect(records).toEqual(want);
  // Two installs wrote some of those days: the CSV has fewer lines than the JSON has install rows.
  expect(records.length).toBeLessThan(doc.dayRows.length);
  expect(records.some((r) => r.kind === "gauge" && r.low !== r.high)).toBe(true);
  console.log(
    `fixture account: JSON export ${jsonText.length} bytes with ${doc.dayRows.length} install day rows; CSV ${csvText.length} bytes with ${records.length} lines after its header`,
  );

  // A page of two rows streams the same bytes as the route's pages.
  const paged = await new Response(csvStream(t.db, u.uuid, 2)).text();
  expect(paged).toBe(csvText);
});

test("fields are quoted as RFC 4180 says, and read back whole", () => {
  const fields = ["plain", "a,comma", 'a "quote"', "two\r\nlines", "", "-12", "line\nfeed"];
  expect(fields.map(csvField)).toEqual([
    "plain",
    '"a,comma"',
    '"a ""quote"""',
    '"two\r\nlines"',
    "",
    "-12",
    '"line\nfeed"',
  ]);
  const text = `${fields.map(csvField).join(",")}\r\n`;
  expect(parse(text)).toEqual([fields]);
});

test("signed out there is no CSV; the owner's page links its own, which nobody else can take", async () => {
  expect((await t.request("/v1/stats/export.csv")).status).toBe(401);
  const link = await pageLink(t, u);
  const traded = await t.request(link);
  expect(traded.status).toBe(303);
  const cookie = traded.headers.get("set-cookie")!.split(";")[0]!;
  const page = await (await t.request(traded.headers.get("location")!, { headers: { cookie } })).text();
  const href = page.match(/href="([^"]+\/export\.csv)"/)?.[1];
  expect(href).toBe(`${traded.headers.get("location")}/export.csv`);
  const own = await t.request(href!, { headers: { cookie } });
  expect(own.status).toBe(200);
  expect(await own.text()).toBe(await (await t.request("/v1/stats/export.csv", { headers: u.auth })).text());
  // Without the cookie, or with it under another name: the page that does not exist.
  expect((await t.request(href!)).status).toBe(404);
  expect((await t.request("/u/Someone_Else/export.csv", { headers: { cookie } })).status).toBe(404);
});
