// The owner's CSV download at /u/<name>/export.csv (issue 16) is a new way in to an account's
// data: only the owner's own page cookie opens it, for as long as that cookie opens the page. A
// page link (?t=) is not a cookie, another player's cookie is not the owner's, a findable page does
// not make its data downloadable, and signing out ends it.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
// A fresh database and its uploads take seconds on a busy machine.
setDefaultTimeout(30_000);
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE, type Uploader } from "../support/uploads.ts";

const COOKIE_TTL_MS = 3_600_000;
let t: TestApp;
let owner: Uploader;
let other: Uploader;
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, pageCookieTtlMs: COOKIE_TTL_MS }, now: "2026-06-01T12:00:00Z" });
  owner = await uploader(t, { name: "Csv_Owner" });
  other = await uploader(t, { name: "Csv_Other" });
  const res = await owner.send(
    envelope(t, {
      counters: [{ profileId: PROFILE, scope: "day", day: "2026-06-01", rows: [{ k: "mining.blocks.total", v: 5 }] }],
    }),
  );
  expect(res.status).toBe(200);
  // Findable: the page is public, its CSV is not.
  const settings = (await (await t.request("/v1/stats/settings", { headers: owner.auth })).json()) as {
    settingsVersion: number;
  };
  await t.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { ...owner.auth, "content-type": "application/json" },
    body: JSON.stringify({ settingsVersion: settings.settingsVersion, findable: true }),
  });
});
afterAll(() => t.close());

async function cookieOf(p: Uploader): Promise<{ cookie: string; link: string }> {
  const { url } = (await (await t.request("/v1/stats/me/page-token", { method: "POST", headers: p.auth })).json()) as {
    url: string;
  };
  const u = new URL(url);
  const res = await t.request(u.pathname + u.search);
  return { cookie: res.headers.get("set-cookie")!.split(";")[0]!, link: u.search };
}

/** The answer, its body read whole (an export holds its account's one slot until its download ends). */
async function csv(path: string, cookie?: string) {
  const res = await t.request(path, { headers: cookie ? { cookie } : {} });
  const body = await res.text();
  return { status: res.status, text: async () => body };
}

test("only the owner's cookie downloads the owner's CSV", async () => {
  const own = await cookieOf(owner);
  const theirs = await cookieOf(other);
  const ok = await csv("/u/Csv_Owner/export.csv", own.cookie);
  expect(ok.status).toBe(200);
  expect(await ok.text()).toContain("mining.blocks.total");
  // Name matching ignores case, as the page does.
  expect((await csv("/u/csv_owner/export.csv", own.cookie)).status).toBe(200);
  // The page is findable, yet its CSV is not for strangers, nor for another signed-in player.
  expect((await csv("/u/Csv_Owner")).status).toBe(200);
  expect((await csv("/u/Csv_Owner/export.csv")).status).toBe(404);
  expect((await csv("/u/Csv_Owner/export.csv", theirs.cookie)).status).toBe(404);
  // A page link is spent for a cookie at /u/<name>, never taken at the CSV.
  const fresh = (await (
    await t.request("/v1/stats/me/page-token", { method: "POST", headers: owner.auth })
  ).json()) as {
    url: string;
  };
  expect((await csv(`/u/Csv_Owner/export.csv${new URL(fresh.url).search}`)).status).toBe(404);
  // Names of the wrong shape and overlong cookies answer the same 404.
  expect((await csv(`/u/${"A".repeat(300)}/export.csv`, own.cookie)).status).toBe(404);
  expect((await csv("/u/Csv_Owner/export.csv", `tally_page=${"x".repeat(5000)}`)).status).toBe(404);
});

test("the cookie's end and signing out end the download too", async () => {
  const { cookie } = await cookieOf(owner);
  t.clock.advance(COOKIE_TTL_MS);
  try {
    expect((await csv("/u/Csv_Owner/export.csv", cookie)).status).toBe(404);
  } finally {
    t.clock.advance(-COOKIE_TTL_MS);
  }
  const again = await cookieOf(owner);
  expect((await csv("/u/Csv_Owner/export.csv", again.cookie)).status).toBe(200);
  await t.request("/v1/auth/sessions", { method: "DELETE", headers: owner.auth });
  expect((await csv("/u/Csv_Owner/export.csv", again.cookie)).status).toBe(404);
});
