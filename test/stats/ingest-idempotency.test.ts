// Ingest idempotency (contract 4.1): the same batchId from the same account within 7 days answers
// the stored answer marked duplicate and applies nothing; concurrent copies apply once; a batchId
// belongs to its account; answers older than 7 days are purged.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE } from "../support/uploads.ts";
import { storedState } from "../support/stored.ts";
import { rows } from "../../src/db/database.ts";
import { purgeBatches } from "../../src/stats/ingest.query.ts";
import { BATCH_WINDOW_MS } from "../../src/stats/horizons.ts";

let t: TestApp;
beforeAll(async () => (t = await testApp({ settings: { devSignin: true }, now: "2026-06-01T12:00:00Z" })));
afterAll(() => t.close());

const upload = (v: number, batchId?: string) =>
  envelope(t, {
    ...(batchId ? { batchId } : {}),
    counters: [{ profileId: PROFILE, scope: "day", day: "2026-06-01", rows: [{ k: "mining.blocks.stone", v }] }],
  });
const json = async (res: Response) => {
  expect(res.status).toBe(200);
  return (await res.json()) as { duplicate: boolean; applied: { rows: number } };
};

describe("the same batchId", () => {
  test("answers the stored answer marked duplicate and applies nothing, even with other content", async () => {
    const u = await uploader(t);
    const first = upload(10);
    const answer = await json(await u.send(first));
    t.clock.advance(60_000);
    const replay = await json(await u.send({ ...upload(999), batchId: first.batchId, sentAt: t.clock.now() }));
    expect(replay).toEqual({ ...answer, duplicate: true });
    expect((await storedState(t.db, u.uuid)).days.map((d) => d.value)).toEqual([10]);
  });

  test("from another account is that account's own batch", async () => {
    const a = await uploader(t);
    const b = await uploader(t);
    const env = upload(5);
    await json(await a.send(env));
    expect((await json(await b.send(env))).duplicate).toBe(false);
    expect((await storedState(t.db, b.uuid)).days).toHaveLength(1);
  });

  test("after 7 days is a new upload", async () => {
    const u = await uploader(t);
    const env = upload(1);
    await json(await u.send(env));
    t.clock.advance(BATCH_WINDOW_MS - 1);
    expect(
      (
        await json(
          await u.send({ ...env, counters: [{ ...env.counters![0]!, rows: [{ k: "mining.blocks.stone", v: 2 }] }] }),
        )
      ).duplicate,
    ).toBe(true);
    t.clock.advance(2);
    const later = await json(
      await u.send({
        ...env,
        sentAt: t.clock.now(),
        counters: [{ ...env.counters![0]!, rows: [{ k: "mining.blocks.stone", v: 3 }] }],
      }),
    );
    expect(later.duplicate).toBe(false);
    expect((await storedState(t.db, u.uuid)).days.map((d) => d.value)).toEqual([3]);
  });

  test("sent eight times at once applies once; the other seven are duplicates of its answer", async () => {
    const u = await uploader(t);
    const env = upload(42);
    const answers = await Promise.all(Array.from({ length: 8 }, () => u.send(env).then(json)));
    expect(answers.filter((a) => !a.duplicate)).toHaveLength(1);
    const original = answers.find((a) => !a.duplicate)!;
    for (const a of answers.filter((x) => x.duplicate)) expect(a).toEqual({ ...original, duplicate: true });
    expect((await storedState(t.db, u.uuid)).days.map((d) => d.value)).toEqual([42]);
  });

  test("a refused upload stores no batch: fixed and sent again, it applies", async () => {
    const u = await uploader(t);
    const env = upload(7);
    const broken = { ...env, categories: [] };
    expect((await u.send(broken)).status).toBe(422);
    expect((await json(await u.send(env))).duplicate).toBe(false);
  });
});

describe("purging stored answers", () => {
  test("removes answers older than the 7-day window and keeps the rest", async () => {
    const u = await uploader(t);
    await json(await u.send(upload(1)));
    t.clock.advance(BATCH_WINDOW_MS + 1);
    await json(await u.send(upload(2)));
    const count = async () =>
      (await rows<{ n: number }>(t.db, sql`select count(*)::int as n from ingest_batches where uuid = ${u.uuid}`))[0]!
        .n;
    expect(await count()).toBe(2);
    const purged = await purgeBatches(t.db, t.clock.now() - BATCH_WINDOW_MS);
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await count()).toBe(1);
  });
});
