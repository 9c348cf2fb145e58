// One database per test file for the tests of what pages cost (issue 40), with an app of its own
// settings per test over it, findable players and uploads of many keys and days.
import { afterAll, afterEach, beforeAll, expect } from "bun:test";
import { testApp, type TestApp } from "./app.ts";
import { envelope, uploader, PROFILE, type Uploader } from "./uploads.ts";
import { addDays } from "../../src/wire/day.ts";
import type { CounterBlock } from "../../src/wire/envelope.ts";

export const NOW = "2026-06-10T12:00:00Z";
export const TODAY = "2026-06-10";

type Settings = NonNullable<Parameters<typeof testApp>[0]>["settings"];

/**
 * One database for the calling file (a fresh one costs seconds), made and closed by the hooks this
 * registers; each test's `app(settings)` is its own app (settings, clock) over it, closed after it.
 */
export function pageApps() {
  let file: TestApp;
  beforeAll(async () => void (file = await testApp({ now: NOW })));
  afterAll(() => file.close());
  const opened: TestApp[] = [];
  afterEach(async () => {
    for (const t of opened.splice(0)) await t.close();
  });
  return async (settings: Settings = {}) => {
    const t = await testApp({
      database: file.database,
      settings: { devSignin: true, pageRateLimit: 0, cardRateLimit: 0, ...settings },
      now: NOW,
    });
    opened.push(t);
    return t;
  };
}

export async function findablePlayer(t: TestApp, name: string): Promise<Uploader> {
  const p = await uploader(t, { name, zone: "UTC" });
  const res = await t.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { ...p.auth, "content-type": "application/json" },
    body: JSON.stringify({ settingsVersion: 2, findable: true }),
  });
  expect(res.status).toBe(200);
  return p;
}

export const sum = (i: number, d: number) => i + d;
/** Uploads `keys` on each of `days`, each value `value(key index, day index)`: one upload a day, or
 * `perUpload` days an upload (the same rows; spares a test of pages, not uploads, dozens of uploads). */
export async function fill(t: TestApp, p: Uploader, keys: string[], days: string[], value = sum, perUpload = 1) {
  const on = (d: number) => keys.map((k, i) => ({ k, v: value(i, d) }));
  const blocks: CounterBlock[] = days.map((day, d) => ({ profileId: PROFILE, scope: "day", day, rows: on(d) }));
  for (let at = 0; at < blocks.length; at += perUpload) {
    const counters = blocks.slice(at, at + perUpload);
    const res = await p.send(envelope(t, { zone: { id: "UTC" }, counters }));
    expect(res.status).toBe(200);
    t.clock.advance(1);
  }
}

/** The days from `from` days before TODAY to `to` days before it, oldest first. */
export const daysBack = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, i) => addDays(TODAY, -(from - i)));

/** Twelve keys of one group, the twelve leading figures a page shows when their values are large (`big`). */
export const LEADING = Array.from({ length: 12 }, (_, i) => `mining.lead.k${String(i).padStart(2, "0")}`);
export const big = (i: number, d: number) => 1_000_000 + i * 1000 + d;
