// A large profile's lifetime figures kept in the database beside the memo (issue 40): a memo that
// has never read the profile (a restart, another instance, an account it forgot) answers from that
// copy for the same state and labels, never for another; erasure, import and retention delete the
// copies, and a copy is never written for an erased account.
import { afterEach, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE, type Uploader } from "../support/uploads.ts";
import { lifetimeMemo } from "../../src/stats/lifetime-memo.ts";
import { keysWithLifetime } from "../../src/stats/fold.ts";
import { keepSnapshot, snapshotOf } from "../../src/stats/lifetime-snapshot.query.ts";
import { eraseData } from "../../src/stats/erase.ts";
import { retentionPass } from "../../src/stats/seal.ts";

const opened: TestApp[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

const send = async (t: TestApp, p: Uploader, v: number) => {
  const rows = Array.from({ length: 5 }, (_, i) => ({ k: `mining.copy.k${i}`, v: v + i }));
  const res = await p.send(
    envelope(t, { zone: { id: "UTC" }, counters: [{ profileId: PROFILE, scope: "day", day: "2026-06-10", rows }] }),
  );
  expect(res.status).toBe(200);
  t.clock.advance(1_000);
};

async function account() {
  const t = await testApp({ settings: { devSignin: true }, now: "2026-06-10T12:00:00Z" });
  opened.push(t);
  const p = await uploader(t, { zone: "UTC" });
  await send(t, p, 10);
  const fold = { db: t.db, catalogue: t.catalogue };
  /** A memo as a new process makes it: copies of sets of 5 keys or more, written at once. */
  const memo = (ttlMs = 600_000) =>
    lifetimeMemo({ maxFigures: 100, ttlMs, clock: t.clock, incremental: true, snapshotMinKeys: 5, besideDelayMs: 0 });
  const labels = `${t.catalogue.version}|none`;
  return { t, p, fold, memo, labels };
}

describe("a large profile's lifetime figures kept in the database", () => {
  test("answer a memo that never read the profile, for the same state only", async () => {
    const { t, p, fold, memo, labels } = await account();
    const first = memo();
    const read = [...(await first.figures(fold, p.uuid, PROFILE, "s1"))];
    await first.settled();
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "s1", labels)).not.toBeNull();
    // The player uploads again; a new process asked for the old state (as if nothing had been
    // uploaded since) answers the copy: the figures of the read that made it, not the rows now.
    await send(t, p, 500);
    const restarted = memo();
    expect([...(await restarted.figures(fold, p.uuid, PROFILE, "s1"))]).toEqual(read);
    // For the account's new state the copy is not used: every key is read, and that set is kept.
    const now = [...(await restarted.figures(fold, p.uuid, PROFILE, "s2"))];
    expect(now).toEqual(await keysWithLifetime(fold, p.uuid, PROFILE));
    expect(now).not.toEqual(read);
    await restarted.settled();
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "s1", labels)).toBeNull();
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "s2", labels)).not.toBeNull();
    // Labels made with another copy of the item list are not used either.
    const items = { itemName: () => undefined, version: "refreshed" };
    expect([...(await memo().figures({ ...fold, items }, p.uuid, PROFILE, "s2"))]).toEqual(now);
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "s2", `${t.catalogue.version}|refreshed`)).toBeNull();
  });

  test("are only for profiles of snapshotMinKeys keys, and age like a set in memory", async () => {
    const { t, p, fold, labels } = await account();
    const small = lifetimeMemo({
      maxFigures: 100,
      ttlMs: 60_000,
      clock: t.clock,
      snapshotMinKeys: 6,
      besideDelayMs: 0,
    });
    await small.figures(fold, p.uuid, PROFILE, "s1");
    await small.settled();
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "s1", labels)).toBeNull();
    const kept = lifetimeMemo({ maxFigures: 100, ttlMs: 60_000, clock: t.clock, snapshotMinKeys: 5, besideDelayMs: 0 });
    await kept.figures(fold, p.uuid, PROFILE, "s1");
    await kept.settled();
    const copy = await snapshotOf(t.db, p.uuid, PROFILE, "s1", labels);
    // Past its time to live a memo answering from the copy reads every key again after the page, and
    // keeps that read (its time now).
    t.clock.advance(60_000);
    const later = lifetimeMemo({
      maxFigures: 100,
      ttlMs: 60_000,
      clock: t.clock,
      snapshotMinKeys: 5,
      besideDelayMs: 0,
    });
    await later.figures(fold, p.uuid, PROFILE, "s1");
    await later.settled();
    await later.settled();
    expect((await snapshotOf(t.db, p.uuid, PROFILE, "s1", labels))!.readAt).toBe(copy!.readAt + 60_000);
  });

  test("go with an erasure, an import and retention, and are never written for an erased account", async () => {
    const { t, p, fold, memo, labels } = await account();
    const kept = async (state: string) => {
      const m = memo();
      await m.figures(fold, p.uuid, PROFILE, state);
      await m.settled();
      return snapshotOf(t.db, p.uuid, PROFILE, state, labels);
    };
    expect(await kept("a")).not.toBeNull();
    // An import of the account's own export (which changes no figure) still forgets it.
    const file = await (await t.request("/v1/stats/export", { headers: p.auth })).text();
    const imported = await t.request("/v1/stats/import", {
      method: "POST",
      body: Bun.gzipSync(new TextEncoder().encode(file)),
      headers: { ...p.auth, "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(imported.status).toBe(200);
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "a", labels)).toBeNull();
    // Retention moves baselines' dates without an upload.
    expect(await kept("b")).not.toBeNull();
    t.clock.set("2028-07-01T12:00:00Z");
    await retentionPass({ db: t.db, clock: t.clock });
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "b", labels)).toBeNull();
    // Erasure: gone, and a copy read before it (another instance's, late) is not written after it.
    expect(await kept("c")).not.toBeNull();
    await eraseData(t.db, p.uuid);
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "c", labels)).toBeNull();
    await keepSnapshot(t.db, { uuid: p.uuid, profileId: PROFILE, state: "c", labels, readAt: 1, figures: "[]" });
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "c", labels)).toBeNull();
  });
});
