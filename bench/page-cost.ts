// What a large account's pages cost (issue 40): an account of KEYS keys x DAYS days built with
// ordinary uploads within every limit, then, cold (a query string never asked before, so no kept
// copy answers), its statistics page (week, month, year), a badge, the card and, signed in,
// GET /v1/stats/periods; and a bystander's /v1/health p99 while one client asks for distinct pages
// at the page limit. Against the compiled binary, embedded (or Postgres with --postgres URL).
// Compare binaries in one run: the first is "after", the others as given.
// --memo-ttl MS: PAGE_LIFETIME_MEMO_TTL_MS, and two more reads: a page MS after the last (its kept
// lifetime figures past their time to live: answered, and read whole beside it) and the page after it.
// --restart: one more read at the end, the first page after the binary is stopped and started again
// on the same data (nothing of the account in memory; a large profile's lifetime figures kept in the
// database answer it: PAGE_LIFETIME_SNAPSHOT_MIN_KEYS).
// --settle S: the rollups job runs every second and the reads start S seconds after the build, when
// the account's days are closed (its steady state); without it they start at once, the days open.
//   bun run build && bun bench/page-cost.ts dist/tally [/tmp/base/tally] [--keys 10000] [--days 100] [--settle 60] [--render-budget MS] [--memo-ttl MS] [--restart] [--postgres URL]
import { resolve } from "node:path";
import postgres from "postgres";
import { cpuOf, startBinary } from "./process.ts";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
const KEYS = Number(opt("keys", "10000"));
const DAYS = Number(opt("days", "100"));
const pgUrl = opt("postgres", "");
const SETTLE_S = Number(opt("settle", "0"));
const RENDER_BUDGET = opt("render-budget", "0");
const MEMO_TTL_MS = Number(opt("memo-ttl", "0"));
const RESTART = args.includes("--restart");
const binaries = args
  .filter((a, i) => !a.startsWith("--") && !(args[i - 1]?.startsWith("--") && args[i - 1] !== "--restart"))
  .map((a) => resolve(a));
if (binaries.length === 0) binaries.push(resolve("dist/tally"));

const PROFILE = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";
const INSTALL = "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf";
const ROWS_PER_UPLOAD = 50_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const hex = (n: number) => n.toString(16).padStart(32, "0");
const NAMESPACES = ["mining", "farming", "fishing", "foraging", "kills", "loot"];
const KINDS = ["count", "count", "count", "max", "min", "gauge"] as const;
const keyOf = (i: number) => `${NAMESPACES[i % NAMESPACES.length]}.bench.k${i}`;

const ms = (t0: number) => Math.round((performance.now() - t0) * 10) / 10;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

async function run(binary: string) {
  let dbName = "";
  if (pgUrl) {
    dbName = `pagecost_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
    const admin = postgres(pgUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${dbName}`);
    await admin.end();
  }
  const service = await startBinary(binary, {
    DEV_SIGNIN: "true",
    AUTH_RATE_LIMIT_PER_MINUTE: "0",
    // What a page costs, not the account's render budget (which would answer 429 after ~10 s of
    // renders): --render-budget MS sets it (default 0, no budget).
    PAGE_RENDER_MS_PER_ACCOUNT_PER_MINUTE: RENDER_BUDGET,
    ...(SETTLE_S > 0 ? { JOB_STATS_ROLLUPS_INTERVAL_MS: "1000" } : {}),
    ...(MEMO_TTL_MS > 0 ? { PAGE_LIFETIME_MEMO_TTL_MS: String(MEMO_TTL_MS) } : {}),
    ...(pgUrl ? { DATABASE_URL: pgUrl.replace(/\/[^/]*$/, `/${dbName}`) } : {}),
  });
  const base = service.url;
  const proc = service;
  try {
    const { auth, settingsVersion } = await findableAccount(base, "b".repeat(32), "BigAccount");

    // Build: every (key, day) once, oldest days first, 50 000 rows an upload.
    const today = Date.now();
    const days = Array.from({ length: DAYS }, (_, i) => dayOf(today - (DAYS - 1 - i) * 86_400_000));
    const t0 = performance.now();
    let batch = 0;
    let blocks: Block[] = [];
    let count = 0;
    const send = async () => {
      const body = Bun.gzipSync(new TextEncoder().encode(upload(++batch, settingsVersion, blocks)));
      const r = await fetch(`${base}/v1/stats/ingest`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", "content-encoding": "gzip" },
        body,
      });
      if (!r.ok) throw new Error(`upload ${batch}: ${r.status} ${await r.text()}`);
      blocks = [];
      count = 0;
    };
    for (const day of days) {
      for (let k0 = 0; k0 < KEYS; ) {
        const n = Math.min(KEYS - k0, ROWS_PER_UPLOAD - count);
        blocks.push({
          profileId: PROFILE,
          scope: "day",
          day,
          rows: Array.from({ length: n }, (_, j) => {
            const i = k0 + j;
            return { k: keyOf(i), v: (i % 97) + days.indexOf(day) + 1, m: KINDS[i % KINDS.length]! };
          }),
        });
        k0 += n;
        count += n;
        if (count >= ROWS_PER_UPLOAD) await send();
      }
    }
    if (count > 0) await send();
    const buildMs = ms(t0);
    if (SETTLE_S > 0) await Bun.sleep(SETTLE_S * 1000);
    // Cold means never asked for this account since its last upload, not a process that has never
    // drawn a page: a small account's page, card, badge and periods are asked first, so the first
    // figures below are not the binary's first page (its code's first run).
    await warmUp(base);

    // Cold reads: each with a query string never asked before.
    let n = 0;
    const cold = async (path: string, headers: Record<string, string> = {}) => {
      // Pages and cards are kept: a query string never asked before is never answered from a copy.
      const sep = path.includes("?") ? "&" : "?";
      const url = path.startsWith("/u/") && !path.includes("/badge/") ? `${path}${sep}cold=${++n}` : path;
      const cpu0 = cpuOf(proc.pid);
      const t = performance.now();
      const r = await fetch(`${base}${url}`, { headers });
      const bytes = (await r.arrayBuffer()).byteLength;
      return { status: r.status, ms: ms(t), cpuMs: Math.round((cpuOf(proc.pid) - cpu0) * 1000), bytes };
    };
    const reads: Record<string, { status: number; ms: number; cpuMs: number; bytes: number }> = {};
    for (const [name, path, headers] of [
      ["page (week)", "/u/BigAccount", {}],
      ["page ?period=month", "/u/BigAccount?period=month", {}],
      ["page ?period=year", "/u/BigAccount?period=year", {}],
      ["page ?range=365", "/u/BigAccount?range=365", {}],
      ["badge (held key)", `/u/BigAccount/badge/${keyOf(0)}.svg`, {}],
      ["badge (key not held)", "/u/BigAccount/badge/mining.none.held.svg", {}],
      ["card", "/u/BigAccount/card.png", {}],
      ["GET /v1/stats/periods", `/v1/stats/periods?profile=${PROFILE}`, auth],
    ] as const) {
      reads[name] = await cold(path, headers);
    }
    // The mod's usual upload: a few keys of today. The next page (and card) is the first of a new
    // account state; on the embedded database it reads again only the keys the upload wrote.
    blocks = [
      {
        profileId: PROFILE,
        scope: "day",
        day: days.at(-1)!,
        rows: Array.from({ length: 20 }, (_, i) => ({
          k: keyOf(i * 7),
          v: 1_000_000 + i,
          m: KINDS[(i * 7) % KINDS.length]!,
        })),
      },
    ];
    await send();
    reads["page after a 20-key upload"] = await cold("/u/BigAccount");
    reads["card after it"] = await cold("/u/BigAccount/card.png?after=1");
    if (MEMO_TTL_MS > 0) {
      await Bun.sleep(MEMO_TTL_MS + 500);
      // Pages not yet drawn for this account state (a kept page would answer for the same parameters).
      reads["page past the memo's time to live"] = await cold("/u/BigAccount?period=month");
      await Bun.sleep(1_000);
      reads["the page after it"] = await cold("/u/BigAccount?period=year");
    }

    // A bystander's health while one client asks for distinct pages at the page limit (120 a minute).
    const healthMs: number[] = [];
    let stop = false;
    const probe = (async () => {
      while (!stop) {
        const t = performance.now();
        await fetch(`${base}/v1/health`).then((r) => r.arrayBuffer());
        healthMs.push(ms(t));
        await Bun.sleep(50);
      }
    })();
    // Every page a stranger can ask for differs in its parameters (a junk parameter is the same page
    // on a service that keys its copies by what the page uses): periods x ranges, then list pages.
    const variants = [
      ...["day", "week", "month", "year"].flatMap((p) => [30, 90, 365].map((r) => `period=${p}&range=${r}`)),
      ...Array.from({ length: 60 }, (_, i) => `group=mining&page=${i + 1}`),
    ];
    const pageMs: number[] = [];
    const statuses = new Map<number, number>();
    const until = performance.now() + 20_000;
    for (let i = 0; performance.now() < until; i++) {
      const t = performance.now();
      const r = await fetch(`${base}/u/BigAccount?${variants[i % variants.length]}&x=${++n}`);
      await r.arrayBuffer();
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      pageMs.push(ms(t));
      await Bun.sleep(Math.max(0, 500 - (performance.now() - t)));
    }
    stop = true;
    await probe;
    if (RESTART) {
      await service.restart();
      // The new process's first page and card (its code's first run) are a small account's.
      for (const path of ["/u/WarmUp", "/u/WarmUp/card.png"]) await (await fetch(`${base}${path}`)).arrayBuffer();
      reads["first page after a restart"] = await cold("/u/BigAccount");
      reads["the page after it (restart)"] = await cold("/u/BigAccount?period=month");
    }
    return {
      buildMs,
      reads,
      underLoad: {
        pages: pageMs.length,
        statuses: Object.fromEntries(statuses),
        pageP50: pct(pageMs, 0.5),
        healthP50: pct(healthMs, 0.5),
        healthP99: pct(healthMs, 0.99),
        healthMax: Math.max(...healthMs),
      },
    };
  } finally {
    await service.stop();
    if (dbName) {
      const admin = postgres(pgUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
  }
}

type Block = { profileId: string; scope: string; day: string; rows: { k: string; v: number; m: string }[] };

/** An upload's body as the mod sends it: one install, one profile, these day blocks. */
const upload = (batch: number, settingsVersion: number, counters: Block[]) =>
  JSON.stringify({
    schema: 1,
    batchId: hex(batch),
    sentAt: Date.now(),
    mode: "live",
    client: { install: INSTALL, modVersion: "bench", minecraft: "1.21.4", catalogue: 1 },
    zone: { id: "UTC" },
    settingsVersion,
    profile: { id: PROFILE, cuteName: "Kiwi" },
    categories: ["combat", "gathering"],
    counters,
  });

/** Signs a player in (development sign-in) with findable statistics of both categories. */
async function findableAccount(base: string, uuid: string, name: string) {
  const json = { "content-type": "application/json" };
  const signIn = await fetch(`${base}/v1/auth/dev`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ uuid, name, zone: "UTC" }),
  });
  const auth = { authorization: `Bearer ${((await signIn.json()) as { token: string }).token}` };
  const s = await fetch(`${base}/v1/stats/settings`, {
    method: "PATCH",
    headers: { ...auth, ...json },
    body: JSON.stringify({ settingsVersion: 1, findable: true, categories: { combat: true, gathering: true } }),
  });
  if (!s.ok) throw new Error(`settings: ${s.status} ${await s.text()}`);
  return { auth, settingsVersion: ((await s.json()) as { settingsVersion: number }).settingsVersion };
}

/** A small findable account's page, card, badge and periods, asked once each. */
async function warmUp(base: string) {
  const { auth, settingsVersion } = await findableAccount(base, "c".repeat(32), "WarmUp");
  const rows = Array.from({ length: 5 }, (_, i) => ({ k: keyOf(i), v: i + 1, m: KINDS[i % KINDS.length]! }));
  const up = await fetch(`${base}/v1/stats/ingest`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: upload(999_999, settingsVersion, [{ profileId: PROFILE, scope: "day", day: dayOf(Date.now()), rows }]),
  });
  if (!up.ok) throw new Error(`warm-up upload: ${up.status} ${await up.text()}`);
  for (const [path, headers] of [
    ["/u/WarmUp", {}],
    ["/u/WarmUp?period=month", {}],
    ["/u/WarmUp?group=mining", {}],
    ["/u/WarmUp/card.png", {}],
    [`/u/WarmUp/badge/${keyOf(0)}.svg`, {}],
    [`/v1/stats/periods?profile=${PROFILE}`, auth],
  ] as const)
    await (await fetch(`${base}${path}`, { headers })).arrayBuffer();
}

for (const binary of binaries) {
  console.log(`\n${binary}: ${KEYS} keys x ${DAYS} days = ${KEYS * DAYS} day rows, ${pgUrl ? "Postgres" : "embedded"}`);
  const r = await run(binary);
  console.log(`built in ${Math.round(r.buildMs / 1000)} s`);
  console.table(r.reads);
  console.log("one client at the page limit (distinct year pages), bystander health:", r.underLoad);
}
