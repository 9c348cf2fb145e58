// What bug intake's look-up of a report's words as players' names costs (issue 36,
// src/privacy/known-names.ts): the largest report's 512 words (MOST_NAMES_LOOKED_UP) asked of the
// accounts (their lower(name) index) and of the name cache (its key), with --accounts accounts and
// as many cached names stored. Baseline in the same run: one account read by name, the query every
// /u/<name> page makes. On the database under test (Postgres when DATABASE_URL is set, else
// embedded). Reports a table and JSON; asserts nothing.
//   bun bench/known-names.ts [--accounts N] [--runs N]
import { testDatabase, backend } from "../test/support/db.ts";
import { accountByName, accountNamesAmong } from "../src/accounts/accounts.ts";
import { upsertAtSignIn } from "../src/accounts/accounts.query.ts";
import { cachedNamesAmong } from "../src/profiles/caches.ts";
import { storeName } from "../src/profiles/profiles.query.ts";
import { MOST_NAMES_LOOKED_UP } from "../src/privacy/known-names.ts";

const args = process.argv.slice(2);
const accounts = Number(args[args.indexOf("--accounts") + 1]) || 20_000;
const runs = Number(args[args.indexOf("--runs") + 1]) || 200;

const database = await testDatabase();
const db = database.db;
const name = (i: number) => `player_${i.toString(36)}`;
const uuid = (i: number) => i.toString(16).padStart(32, "0");
for (let i = 0; i < accounts; i++) {
  await upsertAtSignIn(db, { uuid: uuid(i), name: name(i), zone: "UTC", now: 0, retentionDays: 365 });
  await storeName(db, { uuid: uuid(i + accounts), name: `cached_${i.toString(36)}`, fetchedAt: 0 });
}
// The report's words: one in eight an account's or a cached name, the rest nobody's.
const words = Array.from({ length: MOST_NAMES_LOOKED_UP }, (_, i) =>
  i % 8 === 0 ? name(i * 7) : i % 8 === 4 ? `cached_${(i * 7).toString(36)}` : `nobody_${i.toString(36)}`,
);

async function stats(f: () => Promise<unknown>) {
  for (let i = 0; i < 10; i++) await f();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]! * 1000) / 1000;
  return { p50Ms: at(0.5), p99Ms: at(0.99) };
}

const found = {
  accounts: (await accountNamesAmong(db, words)).length,
  cached: (await cachedNamesAmong(db, words)).length,
};
const rows = {
  accounts: await stats(() => accountNamesAmong(db, words)),
  cache: await stats(() => cachedNamesAmong(db, words)),
  baselineOneAccount: await stats(() => accountByName(db, name(3))),
};
console.log(`${backend}, ${accounts} accounts and ${accounts} cached names, ${words.length} words asked`);
console.log(`found: ${found.accounts} accounts' names, ${found.cached} cached names`);
for (const [what, r] of Object.entries(rows)) console.log(`${what.padEnd(20)} p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms`);
console.log(JSON.stringify({ bench: "known-names", backend, accounts, words: words.length, found, rows }));
await database.close();
