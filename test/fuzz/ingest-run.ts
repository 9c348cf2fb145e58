// Issue 9, in process: a few thousand mutated uploads (mutate.ts) against the ingest route, on the
// embedded database or on Postgres, the run's requests split over test files (ingest-1.test.ts and
// ingest-2.test.ts each send one half into a database of its own, so two workers share the run).
// Every answer is below 500 with the error shape and a stable code; afterwards the stored state is
// exactly what the accepted uploads alone give: the batch table holds exactly their batchIds, every
// stored row carries the marker of an accepted upload, and a second, fresh database fed only the
// accepted uploads (same bytes, same clock, same order) gives the same answers and the same stored
// bytes. A replay in a part sends again a request of that part (mutate.ts's `from`).
// FUZZ_SEED=<n> replays a run, FUZZ_COUNT=<n> changes its length, FUZZ_ONLY=<n> sends one request
// (in the part that holds it).
import { afterEach, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { testApp, type TestApp } from "../support/app.ts";
import { uploader, type Uploader } from "../support/uploads.ts";
import { storedState } from "../support/stored.ts";
import { fixtureCatalogue } from "../support/fixtures.ts";
import { counterKeys, counterRollups, ingestBatches } from "../../src/stats/counters.table.ts";
import { accounts } from "../../src/accounts/accounts.table.ts";
import { answerFault, Tally } from "./check.ts";
import { batchIdOf, fuzzRequest, MARKER, type FuzzContext, type FuzzRequest } from "./mutate.ts";

// 4 000 requests and their replay took 2-3 minutes in one file on the 2-core machine with the
// suite's other workers, and 210 s of requests alone with a second suite beside it: the timeout is a
// part's ceiling, not its measure (CI's step limit is 20 minutes). It is the test's own, not the
// file's default: both parts import this module, and a worker that runs both evaluates it once, so
// a setDefaultTimeout here held for the first part only (the second timed out at 30 s on a busy machine).
const PART_TIMEOUT_MS = 600_000;

const seed = Number(Bun.env.FUZZ_SEED ?? 9);
const count = Number(Bun.env.FUZZ_COUNT ?? 4000);
const only = Bun.env.FUZZ_ONLY === undefined ? undefined : Number(Bun.env.FUZZ_ONLY);
const START = Date.parse("2026-06-01T06:00:00Z");
/** The player turned the service category off: its rows are dropped, never stored. */
const CONSENT = ["combat", "gathering"];

const apps: TestApp[] = [];

async function app(): Promise<TestApp> {
  const t = await testApp({ settings: { devSignin: true, catalogueFile: fixtureCatalogue }, now: START });
  apps.push(t);
  return t;
}

const contextOf = (t: TestApp): FuzzContext => ({
  catalogueVersion: t.catalogue.version,
  categoryOf: t.catalogue.categoryOf,
  categories: t.catalogue.categories,
  // One second per request: every received_at, first_seen_at and last upload names its request.
  nowAt: (n) => START + 60_000 + n * 1000,
});

async function send(t: TestApp, u: Uploader, req: FuzzRequest) {
  t.clock.set(contextOf(t).nowAt(req.n));
  const res = await t.request("/v1/stats/ingest", {
    method: "POST",
    body: req.body,
    headers: { ...req.headers, ...(req.auth ? u.auth : {}) },
  });
  return { status: res.status, text: await res.text() };
}

/** Everything ingest keeps for the account, and the tables every account shares, without the uuid. */
async function dump(t: TestApp, uuid: string): Promise<string> {
  const state = {
    ...(await storedState(t.db, uuid)),
    rollups: await t.db
      .select()
      .from(counterRollups)
      .where(eq(counterRollups.uuid, uuid))
      .orderBy(asc(counterRollups.profileId), asc(counterRollups.key)),
    keys: await t.db.select().from(counterKeys).orderBy(asc(counterKeys.key)),
    batches: await t.db
      .select()
      .from(ingestBatches)
      .where(eq(ingestBatches.uuid, uuid))
      .orderBy(asc(ingestBatches.batchId)),
    lastUploadAt: (await t.db.select({ at: accounts.lastUploadAt }).from(accounts).where(eq(accounts.uuid, uuid)))[0]
      ?.at,
  };
  return JSON.stringify(state, (k, v) => (k === "uuid" ? undefined : typeof v === "bigint" ? String(v) : v), 1);
}

/**
 * Part `part` of `parts` of the run: requests [from, to) of FUZZ_COUNT into a database of its own,
 * checked as the comment above says. Called once by each test file.
 */
export function fuzzIngestPart(part: number, parts: number) {
  const from = Math.floor((count * (part - 1)) / parts);
  const to = Math.floor((count * part) / parts);
  afterEach(async () => {
    for (const a of apps.splice(0)) await a.close();
  });
  const name = `${only === undefined ? `requests ${from}-${to - 1} of ${count}` : `request ${only}`} mutated uploads (seed ${seed}): no 5xx, stable codes, nothing stored by a refused upload`;
  if (only !== undefined && (only < from || only >= to)) return test.skip(name, () => {});
  test(
    name,
    async () => {
      const t = await app();
      const u = await uploader(t, { consent: CONSENT });
      const ctx = contextOf(t);
      const tally = new Tally();
      const faults: string[] = [];
      const accepted: { req: FuzzRequest; text: string }[] = [];
      const t0 = performance.now();
      for (let n = only ?? from; n < (only === undefined ? to : only + 1); n++) {
        const req = fuzzRequest(seed, n, ctx, from);
        const { status, text } = await send(t, u, req);
        tally.add(req.kind, status, text);
        const fault = answerFault(status, text);
        if (fault && faults.length < 20) faults.push(`FUZZ_SEED=${seed} FUZZ_ONLY=${n} (${req.kind}): ${fault}`);
        if (status === 200) accepted.push({ req, text });
      }
      const ms = Math.round(performance.now() - t0);
      console.log(
        `${tally.table()}\n\n${ms} ms for ${tally.requests} requests\n${JSON.stringify(tally.json({ seed, ms }))}`,
      );
      expect(faults).toEqual([]);

      // The batch table holds exactly the batchIds of the accepted uploads.
      const stored = (
        await t.db.select({ id: ingestBatches.batchId }).from(ingestBatches).where(eq(ingestBatches.uuid, u.uuid))
      )
        .map((r) => r.id)
        .sort();
      expect(stored).toEqual([...new Set(accepted.map((a) => batchIdOf(a.req)!))].sort());

      // Every stored row carries the marker of an accepted upload.
      const once = await dump(t, u.uuid);
      const acceptedN = new Set(accepted.map((a) => a.req.n));
      const strangers = [...new Set([...once.matchAll(MARKER)].map((m) => Number(m[1])))].filter(
        (n) => !acceptedN.has(n),
      );
      expect(strangers.map((n) => `FUZZ_SEED=${seed} FUZZ_ONLY=${n} stored rows but was refused`)).toEqual([]);

      // The accepted uploads alone, into a fresh database, give the same answers and the same bytes.
      const fresh = await app();
      const v = await uploader(fresh, { uuid: u.uuid, consent: CONSENT });
      for (const a of accepted) {
        const again = await send(fresh, v, a.req);
        expect({ n: a.req.n, status: again.status, text: again.text }).toEqual({
          n: a.req.n,
          status: 200,
          text: a.text,
        });
      }
      expect(await dump(fresh, u.uuid)).toBe(once);
      // Enough of the run got through to the database for the comparison to mean something.
      if (only === undefined) expect(tally.accepted).toBeGreaterThan((to - from) / 20);
    },
    PART_TIMEOUT_MS,
  );
}
