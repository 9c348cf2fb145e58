// Hostile import files (issue 37): each refused with its own code, and nothing of it stored (the
// account's rows are as they were, byte for byte). The file is read as it streams: nesting is
// bounded per row, a file of 10^6 rows stops at the decoded cap in bounded memory, and a file cut
// short, of a newer format, of another account, or naming another player is refused whole.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { fixtureCatalogue } from "../support/fixtures.ts";
import { storedState } from "../support/stored.ts";
import { envelope, uploader, INSTALL_A, PROFILE, type Uploader } from "../support/uploads.ts";
import { addDays } from "../../src/wire/day.ts";
import { sealPass } from "../../src/stats/seal.ts";

setDefaultTimeout(120_000);

const TODAY = "2026-06-01";
const DECODED_CAP = 16 * 1024 * 1024;

let t: TestApp;
let player: Uploader;
beforeAll(async () => {
  t = await testApp({
    settings: {
      devSignin: true,
      catalogueFile: fixtureCatalogue,
      statsMaxKeysPerProfile: 10,
      importMaxBytes: DECODED_CAP,
    },
    now: `${TODAY}T12:00:00Z`,
  });
  player = await uploader(t, { zone: "UTC" });
  // What the account holds before every file: 8 keys today, and a day past the horizon, sealed.
  const old = addDays(TODAY, -130);
  t.clock.set(`${old}T12:00:00Z`);
  const rows = Array.from({ length: 8 }, (_, i) => ({ k: `loot.item.ITEM_${i}`, v: i + 1 }));
  expect(
    (await player.send(envelope(t, { counters: [{ profileId: PROFILE, scope: "day", day: old, rows }] }))).status,
  ).toBe(200);
  t.clock.set(`${TODAY}T12:00:00Z`);
  await sealPass(t);
  expect(
    (await player.send(envelope(t, { counters: [{ profileId: PROFILE, scope: "day", day: TODAY, rows }] }))).status,
  ).toBe(200);
});
afterAll(() => t.close());

type Doc = Record<string, unknown> & { dayRows: Record<string, unknown>[] };
const dayRow = (key: string, day = TODAY, value = 1) => ({
  profileId: PROFILE,
  key,
  kind: "count",
  day,
  installId: INSTALL_A,
  value,
  low: null,
  high: null,
  sentAt: Date.parse(`${TODAY}T13:00:00Z`),
});
/** A valid file of this account: one profile, one new row today. */
function file(over: Partial<Doc> = {}): Doc {
  return {
    service: "tally",
    format: 2,
    exportedAt: `${TODAY}T12:00:00.000Z`,
    account: { uuid: player.uuid, name: "x", settings: { zone: "UTC" } },
    deviceSessions: [],
    profiles: [{ profileId: PROFILE, cuteName: "Pomegranate", firstSeenAt: 1, lastSeenAt: 2 }],
    dayRows: [dayRow("loot.item.ITEM_0", TODAY, 99)],
    backfills: [],
    seals: [],
    sessions: [],
    timelineEvents: [],
    mirrorSections: [],
    ...over,
  };
}

const gz = (text: string) => Bun.gzipSync(new TextEncoder().encode(text));

async function post(body: Uint8Array<ArrayBuffer>, query = "", gzip = true) {
  return t.request(`/v1/stats/import${query}`, {
    method: "POST",
    body,
    headers: {
      ...player.auth,
      "content-type": "application/json",
      ...(gzip ? { "content-encoding": "gzip" } : {}),
    },
  });
}

/** Sends the body and expects its refusal with `code` (and `path`), the account's rows unchanged. */
async function refused(body: Uint8Array<ArrayBuffer>, code: string, path?: string, query = "") {
  const before = await storedState(t.db, player.uuid);
  const res = await post(body, query);
  const answer = (await res.json()) as { error: { code: string; path?: string } };
  expect(answer.error?.code).toBe(code);
  if (path) expect(answer.error.path).toBe(path);
  expect(await storedState(t.db, player.uuid)).toEqual(before);
  return answer;
}

describe("hostile import files are refused whole, nothing stored", () => {
  test("a valid file is taken (the control)", async () => {
    const res = await post(gz(JSON.stringify(file({ dayRows: [dayRow("loot.item.ITEM_1", TODAY, 1)] }))));
    expect(res.status).toBe(200);
  });

  test("deep nesting inside a row: body_too_deep at its first level past the bound", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const text = JSON.stringify(file()).replace('"sessions":[]', `"sessions":[${deep}]`);
    await refused(gz(text), "body_too_deep");
  });

  test("10^6 rows: read as they stream, stopped at the decoded cap in bounded memory", async () => {
    const [head, tail] = JSON.stringify(file({ dayRows: [] })).split('"dayRows":[]') as [string, string];
    const row = (i: number) => JSON.stringify(dayRow(`loot.item.ITEM_${i % 8}`, addDays(TODAY, -(i % 100)), i));
    const body = new ReadableStream<Uint8Array>({
      i: 0,
      start() {},
      pull(controller) {
        const self = this as unknown as { i: number };
        if (self.i === 0) controller.enqueue(new TextEncoder().encode(`${head}"dayRows":[`));
        if (self.i >= 1_000_000) {
          controller.enqueue(new TextEncoder().encode(`]${tail}`));
          controller.close();
          return;
        }
        const lines: string[] = [];
        for (let n = 0; n < 10_000; n++, self.i++) lines.push((self.i ? "," : "") + row(self.i));
        controller.enqueue(new TextEncoder().encode(lines.join("")));
      },
    } as UnderlyingDefaultSource<Uint8Array> & { i: number });
    const zipped = new Uint8Array(
      await new Response(
        body.pipeThrough(new CompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>),
      ).arrayBuffer(),
    );
    Bun.gc(true);
    const heapBefore = process.memoryUsage().heapUsed;
    await refused(zipped, "body_too_large");
    Bun.gc(true);
    const grew = process.memoryUsage().heapUsed - heapBefore;
    console.log(
      `10^6 rows: ${zipped.byteLength} bytes gzip; heap after the refusal grew ${(grew / 2 ** 20).toFixed(1)} MiB`,
    );
    expect(grew).toBeLessThan(64 * 2 ** 20);
  });

  test("rows past the key cap in the file: too_many_keys at the first key past it", async () => {
    const rows = Array.from({ length: 11 }, (_, i) => dayRow(`loot.item.NEW_${i}`));
    await refused(gz(JSON.stringify(file({ dayRows: rows }))), "too_many_keys", "/dayRows/10/key");
  });

  test("rows that take the account past the key cap with what it holds: too_many_keys, all rolled back", async () => {
    const rows = Array.from({ length: 3 }, (_, i) => dayRow(`loot.item.MORE_${i}`));
    await refused(gz(JSON.stringify(file({ dayRows: rows }))), "too_many_keys");
  });

  test("another account's file without confirm: import_other_account", async () => {
    const other = file({ account: { uuid: "f".repeat(32), name: "y" } });
    await refused(gz(JSON.stringify(other)), "import_other_account", "/account/uuid");
  });

  test("a newer format: format_too_new; no format: format_unsupported", async () => {
    await refused(gz(JSON.stringify(file({ format: 3 }))), "format_too_new", "/format");
    const { format: _f, ...none } = file();
    await refused(gz(JSON.stringify(none)), "format_unsupported", "/format");
  });

  test("a player name in a string (a uuid in a key segment): denylisted_string, not echoed", async () => {
    const key = "loot.from.069a79f444e94726a5befca90e38aaf5";
    const answer = await refused(
      gz(JSON.stringify(file({ dayRows: [dayRow(key)] }))),
      "denylisted_string",
      "/dayRows/0/key",
    );
    expect(JSON.stringify(answer)).not.toContain("069a79f4");
  });

  test("a truncated gzip: invalid_body, even when only its trailer is missing (the JSON whole)", async () => {
    const whole = gz(JSON.stringify(file()));
    await refused(whole.slice(0, whole.byteLength - 1), "invalid_body");
    await refused(whole.slice(0, whole.byteLength - 12), "invalid_body");
    await refused(whole.slice(0, 30), "invalid_body");
  });

  test("unknown fields, in a row and at the top: invalid_body", async () => {
    const row = { ...dayRow("loot.item.ITEM_2"), uuid: "x" };
    await refused(gz(JSON.stringify(file({ dayRows: [row] }))), "invalid_body", "/dayRows/0/uuid");
    await refused(gz(JSON.stringify(file({ extra: 1 }))), "invalid_body", "/extra");
  });

  test("an unsafe integer: invalid_body at its path", async () => {
    const text = JSON.stringify(file()).replace('"value":99', '"value":9007199254740993');
    await refused(gz(text), "invalid_body", "/dayRows/0/value");
  });

  test("a session, timeline event or mirror section of the all-zero account scope: profile_mismatch, as ingest", async () => {
    // An upload's sessions, events and mirror belong to its profile, which is never the account's id.
    const account = "0".repeat(32);
    const at = Date.parse(`${TODAY}T10:00:00Z`);
    const common = { profileId: account, installId: INSTALL_A, day: TODAY };
    const rows = {
      sessions: { id: "s1", ...common, activity: "mining", startedAt: at, endedAt: at + 1, gains: [], costs: [] },
      timelineEvents: { id: "e1", ...common, kind: "level_up", at, key: null, value: null },
      mirrorSections: { profileId: account, section: "skills", installId: INSTALL_A, observedAt: at, values: [] },
    };
    for (const [section, row] of Object.entries(rows))
      await refused(gz(JSON.stringify(file({ [section]: [row] }))), "profile_mismatch", `/${section}/0/profileId`);
  });

  test("a profile's cute name an upload could not carry (empty, past 32 characters): invalid_body", async () => {
    for (const cuteName of ["", "P".repeat(33)]) {
      const profiles = [{ profileId: PROFILE, cuteName, firstSeenAt: 1, lastSeenAt: 2 }];
      await refused(gz(JSON.stringify(file({ profiles }))), "invalid_body", "/profiles/0/cuteName");
    }
  });

  test("a count key whose days add up past the safe range (two installs' open days): total_out_of_range, as ingest", async () => {
    const max = Number.MAX_SAFE_INTEGER;
    const rows = [
      dayRow("loot.item.ITEM_0", TODAY, max),
      { ...dayRow("loot.item.ITEM_0", TODAY, max), installId: "b".repeat(32) },
    ];
    await refused(gz(JSON.stringify(file({ dayRows: rows }))), "total_out_of_range");
  });

  test("a plain (not gzip) body: gzip_required", async () => {
    const res = await post(new TextEncoder().encode(JSON.stringify(file())), "", false);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("gzip_required");
  });
});

describe("days the account holds sealed, and days past the horizon", () => {
  test("a row for a day the account already sealed is refused day_sealed and counted; the rest is taken", async () => {
    const old = addDays(TODAY, -130);
    const before = await storedState(t.db, player.uuid);
    const res = await post(gz(JSON.stringify(file({ dayRows: [dayRow("loot.item.ITEM_3", old, 5)] }))));
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Record<string, any>;
    expect(answer.refused).toEqual([{ code: "day_sealed", rows: 1 }]);
    expect(answer.counts.counterRows.refused).toBe(1);
    const after = await storedState(t.db, player.uuid);
    expect(after.days.filter((d) => d.day === old)).toEqual(before.days.filter((d) => d.day === old));
  });

  test("a day past the horizon the account has not sealed is written sealed (its installs collapsed)", async () => {
    const past = addDays(TODAY, -125);
    const res = await post(gz(JSON.stringify(file({ dayRows: [dayRow("loot.item.ITEM_4", past, 5)] }))));
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Record<string, any>;
    expect(answer.folded.collapsedRows).toBe(1);
    const rows = (await storedState(t.db, player.uuid)).days.filter((d) => d.day === past);
    expect(rows.map((r) => [r.key, r.installId, r.value])).toEqual([["loot.item.ITEM_4", "", 5]]);
  });
});
