// Smoke test of the compiled binary, run by .ci/run after `bun run build`:
//   bun test/smoke/binary.ts dist/tally
// From an empty folder, with nothing else present: the commands, a start on the embedded database,
// health and catalogue, a second process refused on the same folder, a clean stop on SIGTERM, a
// restart that keeps the data; then the same binary on Postgres when DATABASE_URL is set.
// It grows with the service: sign-in, upload and a page join it as those land.
import { mkdtempSync, rmSync, existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { createPostgresDatabase } from "../support/db.ts";
import { freePort } from "../faults/service.ts";
import { fakeIdentity, type Player } from "../support/fakes/identity.ts";
import { fakeGameApi, hypixelProfile } from "../support/fakes/game-api.ts";
import { fakeSessionServer, fakeImageServer, skinPng, hashOf } from "../support/fakes/skins.ts";
import { decode } from "fast-png";

const binary = resolve(process.argv[2] ?? "dist/tally");
const catalogueFile = join(import.meta.dir, "../../catalogue/catalogue.json");
const postgresUrl = loadConfig().databaseUrl;
let passed = 0;
let failed = 0;

function check(name: string, ok: boolean, detail = "") {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? `  (${detail})` : ""}`);
}

type Running = {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  url: string;
  msToHealthy: number;
  output: () => string;
};

/** Only the settings the test names: the binary must need nothing else. */
const cleanEnv = (extra: Record<string, string>) => ({ PATH: "/usr/bin:/bin", HOME: tmpdir(), ...extra });

/**
 * Starts the binary on a free port and waits for its health. A port found free can be taken before
 * the binary binds it (an outgoing connection's ephemeral port: a random port in 20000-40000 once
 * was, in CI); the binary then exits saying so, and it is started again on another.
 */
async function start(cwd: string, env: Record<string, string>): Promise<Running> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(cwd, env);
    } catch (e) {
      if (attempt >= 3 || !String((e as Error).message).includes("port is already in use")) throw e;
    }
  }
}

async function startOnce(cwd: string, env: Record<string, string>): Promise<Running> {
  const port = freePort();
  const t0 = performance.now();
  const proc = Bun.spawn([binary], {
    cwd,
    env: cleanEnv({ PORT: String(port), HOST: "127.0.0.1", ...env }),
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  let out = "";
  void (async () => {
    const reader = proc.stdout.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) out += new TextDecoder().decode(r.value);
  })();
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (proc.exitCode !== null)
      throw new Error(`exited ${proc.exitCode} before answering: ${out}${await new Response(proc.stderr).text()}`);
    const ok = await fetch(`${url}/v1/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (performance.now() - t0 > 30_000) throw new Error(`no answer within 30 s: ${out}`);
    await Bun.sleep(5);
  }
  return { proc, url, msToHealthy: Math.round(performance.now() - t0), output: () => out };
}

async function stop(r: Running): Promise<number> {
  r.proc.kill("SIGTERM");
  return r.proc.exited;
}

async function run(args: string[], cwd: string, env: Record<string, string> = {}) {
  const p = Bun.spawnSync([binary, ...args], { cwd, env: cleanEnv(env) });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

const player: Player = {
  uuid: "5eed5eed5eed5eed5eed5eed5eed5eed",
  name: "Smoke_Tester",
  accessToken: "smoke-access-token",
};
const identity = fakeIdentity([player]);

/** The account check as the mod does it, against the binary and the fake identity provider. */
async function signInFlow(url: string) {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url + path, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "TallyMod/smoke", ...headers },
      body: JSON.stringify(body),
    });
  const codeOf = async (res: Response) =>
    `${res.status} ${((await res.json()) as { error?: { code: string } }).error?.code ?? "ok"}`;
  const challenge = async () =>
    ((await (await post("/v1/auth/challenge", {})).json()) as { serverId: string }).serverId;

  const notJoined = await codeOf(
    await post("/v1/auth/verify", { serverId: await challenge(), name: player.name, zone: "UTC" }),
  );
  check("verify without a join is refused", notJoined === "401 not_joined", notJoined);

  const serverId = await challenge();
  await identity.join(player, serverId);
  const res = await post("/v1/auth/verify", { serverId, name: player.name, zone: "Europe/Berlin" });
  const signedIn = (await res.json()) as { token: string; uuid: string };
  check(
    "challenge, join, verify signs in with the identity provider's uuid",
    res.status === 200 && signedIn.uuid === player.uuid,
  );
  const auth = { authorization: `Bearer ${signedIn.token}` };

  const replay = await codeOf(await post("/v1/auth/verify", { serverId, name: player.name, zone: "UTC" }));
  check("a used serverId is refused", replay === "401 challenge_invalid", replay);
  const smuggled = await codeOf(
    await post("/v1/auth/verify", { serverId: await challenge(), name: player.name, zone: "UTC", uuid: player.uuid }),
  );
  check("a uuid in the body is refused", smuggled === "400 invalid_body", smuggled);
  identity.state.failure = "error500";
  const down = await codeOf(
    await post("/v1/auth/verify", { serverId: await challenge(), name: player.name, zone: "UTC" }),
  );
  identity.state.failure = "none";
  check("the identity provider failing answers identity_unavailable", down === "503 identity_unavailable", down);

  const settings = await fetch(`${url}/v1/stats/settings`, {
    method: "PATCH",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ settingsVersion: 1, categories: { gathering: true } }),
  });
  check(
    "the token changes settings",
    settings.status === 200 && ((await settings.json()) as { settingsVersion: number }).settingsVersion === 2,
  );

  const today = new Date().toISOString().slice(0, 10);
  const rows = Array.from({ length: 400 }, (_, i) => ({ k: `mining.blocks.B${i}`, v: i }));
  const upload = {
    schema: 1,
    batchId: crypto.randomUUID().replaceAll("-", ""),
    sentAt: Date.now(),
    mode: "live",
    client: { install: "c0ffee00c0ffee00c0ffee00c0ffee00", modVersion: "smoke", minecraft: "1.21.4", catalogue: 1 },
    zone: { id: "Europe/Berlin" },
    settingsVersion: 2,
    profile: { id: "4f1c2a3b4d5e6f708192a3b4c5d6e7f8", cuteName: "Kiwi" },
    categories: ["gathering"],
    counters: [{ profileId: "4f1c2a3b4d5e6f708192a3b4c5d6e7f8", scope: "day", day: today, rows }],
  };
  const ingestHeaders = { ...auth, "content-type": "application/json", "content-encoding": "gzip" };
  const ingested = await fetch(`${url}/v1/stats/ingest`, {
    method: "POST",
    headers: ingestHeaders,
    body: Bun.gzipSync(JSON.stringify(upload)),
  });
  const answer = (await ingested.json()) as { applied?: { rows: number }; duplicate?: boolean };
  check(
    "a gzip upload of 400 rows is applied",
    ingested.status === 200 && answer.applied?.rows === 400 && answer.duplicate === false,
  );
  const again = await fetch(`${url}/v1/stats/ingest`, {
    method: "POST",
    headers: ingestHeaders,
    body: Bun.gzipSync(JSON.stringify(upload)),
  });
  check("the same batchId again is a duplicate", ((await again.json()) as { duplicate: boolean }).duplicate === true);
  const plain = await codeOf(
    await fetch(`${url}/v1/stats/ingest`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(upload),
    }),
  );
  check("the same upload unzipped (over 8 KiB) is refused", plain === "413 gzip_required", plain);
  await pagesFlow(url, auth);
  const out = await fetch(`${url}/v1/auth/sessions`, { method: "DELETE", headers: auth });
  check("sign out everywhere", ((await out.json()) as { signedOut: number }).signedOut === 1);
  const after = await codeOf(await fetch(`${url}/v1/auth/session`, { headers: auth }));
  check("the signed-out token is refused at once", after === "401 unauthorized", after);
}

// Profiles and the image proxy: the game API key, the allowlist, and a head rendered by the PNG
// library compiled into the binary.
const GAME_KEY = "smoke-game-key";
const gameApi = fakeGameApi({ key: GAME_KEY });
gameApi.players.set(player.uuid, [hypixelProfile(player.uuid)]);
const skin = skinPng();
const images = fakeImageServer();
images.files.set(`/texture/${hashOf(skin)}`, skin);
const sessionServer = fakeSessionServer([
  { uuid: player.uuid, name: player.name, skinUrl: `http://textures.minecraft.net/texture/${hashOf(skin)}` },
]);
const profileEnv = {
  GAME_API_URL: gameApi.url,
  GAME_API_KEY: GAME_KEY,
  IDENTITY_URL: sessionServer.url,
  TEXTURES_URL: images.url,
};

/** The website from the binary: Markdown pages and the stylesheet embedded, the player's own page through its link. */
async function pagesFlow(url: string, auth: { authorization: string }) {
  const home = await fetch(`${url}/`);
  const html = await home.text();
  check(
    "the home page is rendered from the embedded Markdown, with a CSP",
    home.status === 200 &&
      html.includes("<h1>Your own numbers, kept by you</h1>") &&
      (home.headers.get("content-security-policy") ?? "").includes("default-src 'self'"),
  );
  const css = /href="(\/assets\/style\.[0-9a-f]+\.css)"/.exec(html)?.[1] ?? "";
  const style = await fetch(url + css);
  check(
    "the stylesheet is served, immutable",
    style.status === 200 && style.headers.get("cache-control") === "public, max-age=31536000, immutable",
    css,
  );
  const { url: link } = (await (
    await fetch(`${url}/v1/stats/me/page-token`, { method: "POST", headers: auth })
  ).json()) as { url: string };
  const opened = await fetch(url + new URL(link).pathname + new URL(link).search, { redirect: "manual" });
  const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0]!;
  const own = await fetch(url + (opened.headers.get("location") ?? "/nowhere"), { headers: { cookie } });
  const ownHtml = await own.text();
  check(
    "the page link opens the player's own statistics page",
    opened.status === 303 &&
      own.status === 200 &&
      ownHtml.includes(`${player.name}&#x27;s statistics`) &&
      ownHtml.includes("<svg"),
    `${opened.status} ${own.status}`,
  );
}

async function profilesFlow(url: string) {
  const doc = (await (await fetch(`${url}/v1/gamemode/profiles/${player.uuid}`)).json()) as {
    profiles: { cuteName?: string }[];
  };
  check(
    "a profile lookup answers the allowlisted document",
    doc.profiles?.[0]?.cuteName === "Apple" && !JSON.stringify(doc).includes("inv_contents"),
  );
  const head = await fetch(`${url}/v1/assets/head/${player.uuid}.png`);
  const png = decode(new Uint8Array(await head.arrayBuffer()));
  check(
    "a head is rendered from the skin (64x64 PNG)",
    head.status === 200 && png.width === 64 && png.height === 64,
    `${head.status}`,
  );
  const bad = await fetch(`${url}/v1/assets/skin/..%2F..%2Fetc%2Fpasswd.png`);
  check("an asset id of the wrong shape answers 404", bad.status === 404 && images.calls.length === 1);
}

/** Two reports of one problem: scrubbed, grouped, counted, answered at once. */
async function bugReport(url: string) {
  const send = () =>
    fetch(`${url}/v1/reports/general`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        schema: 1,
        modVersion: "1.0.0",
        minecraft: "1.21.4",
        title: "Smoke test crash",
        message: "Party > [MVP+] Smoke_Tester: hi",
        stackTrace: "java.lang.IllegalStateException: smoke\n\tat dev.tally.mod.Smoke.run(Smoke.java:1)",
      }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { status?: string; count?: number } }));
  const first = await send();
  const second = await send();
  check(
    "a bug report is answered new, the same again as a repeat",
    first.status === 200 && first.body.status === "new" && second.body.status === "repeat" && second.body.count === 2,
    JSON.stringify(second.body),
  );
}

/**
 * Several instances on one Postgres: the same uploads sent alternately through two instances, and
 * all through one, for two accounts, fold to the same totals, byte for byte.
 */
async function twoInstances(a: string, b: string) {
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const account = async (base: string, uuid: string) => {
    const signIn = await fetch(`${base}/v1/auth/dev`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ uuid, name: `Inst${uuid.slice(0, 4)}`, zone: "UTC" }),
    });
    const auth = { authorization: `Bearer ${((await signIn.json()) as { token: string }).token}` };
    await fetch(`${base}/v1/stats/settings`, {
      method: "PATCH",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ settingsVersion: 1, categories: { gathering: true } }),
    });
    return auth;
  };
  const split = await account(a, "1".repeat(32));
  const single = await account(a, "2".repeat(32));
  const profile = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";
  const uploads = Array.from({ length: 30 }, (_, i) => ({
    schema: 1,
    batchId: (i + 1).toString(16).padStart(32, "0"),
    sentAt: Date.now() - 60_000 + i,
    mode: "live",
    client: {
      install: ((i % 3) + 10).toString(16).padStart(32, "0"),
      modVersion: "smoke",
      minecraft: "1.21.4",
      catalogue: 1,
    },
    zone: { id: "UTC" },
    settingsVersion: 2,
    profile: { id: profile, cuteName: "Kiwi" },
    categories: ["gathering"],
    counters: [
      {
        profileId: profile,
        scope: "day",
        day: i % 2 ? today : yesterday,
        rows: Array.from({ length: 50 }, (_, k) => ({
          k: `mining.smoke.k${k}`,
          v: i * 7 + k,
          m: k % 5 === 0 ? "gauge" : k % 5 === 1 ? "max" : "count",
        })),
      },
    ],
  }));
  const send = (base: string, auth: Record<string, string>, body: unknown) =>
    fetch(`${base}/v1/stats/ingest`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "content-encoding": "gzip" },
      body: Bun.gzipSync(JSON.stringify(body)),
    }).then((r) => r.status);
  // Alternating instances, four uploads at a time, for one account; one instance for the other.
  const statuses: number[] = [];
  for (let i = 0; i < uploads.length; i += 4)
    statuses.push(...(await Promise.all(uploads.slice(i, i + 4).map((u, j) => send((i + j) % 2 ? b : a, split, u)))));
  for (const u of uploads) statuses.push(await send(a, single, u));
  const totals = async (base: string, auth: Record<string, string>) =>
    (await fetch(`${base}/v1/stats/totals?profile=${profile}`, { headers: auth })).text();
  const viaTwo = await totals(b, split);
  const viaOne = await totals(a, single);
  check(
    "two instances on one Postgres store the same totals as one",
    statuses.every((s) => s === 200) && viaTwo === viaOne && viaTwo.includes("mining.smoke.k49"),
    `${viaTwo.length} bytes`,
  );
}

const SHARED_LIMIT = 4;

/**
 * Rate limits are counted in Postgres, so a client spreading its requests over two instances gets
 * one allowance, not two. (A name of the wrong shape is counted, then answered 404 with no upstream.)
 * The count is per minute: should the minute turn during the run, it runs once more.
 */
async function sharedRateLimit(a: string, b: string) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const minute = Math.floor(Date.now() / 60_000);
    const statuses: number[] = [];
    for (let i = 0; i <= SHARED_LIMIT; i++)
      statuses.push((await fetch(`${i % 2 ? b : a}/v1/players/${"!".repeat(3)}`)).status);
    if (Math.floor(Date.now() / 60_000) !== minute) continue;
    const allowed = statuses.slice(0, SHARED_LIMIT).every((s) => s === 404);
    check(
      `two instances share one rate limit: ${SHARED_LIMIT} requests spread over both, the next is 429`,
      allowed && statuses[SHARED_LIMIT] === 429,
      statuses.join(" "),
    );
    return;
  }
  check("two instances share one rate limit", false, "the minute turned during both attempts");
}

const empty = mkdtempSync(join(tmpdir(), "tally-smoke-"));
try {
  const version = await run(["--version"], empty);
  check("--version", version.code === 0 && /^tally \d+\.\d+\.\d+/.test(version.out), version.out.trim());
  const help = await run(["--help"], empty);
  check(
    "--help lists commands and settings",
    help.code === 0 && help.out.includes("check-config") && help.out.includes("DATABASE_URL"),
  );
  const bad = await run(["check-config"], empty, { PORT: "nope" });
  check("a bad setting stops with a clear message", bad.code === 2 && bad.err.includes('PORT="nope"'), bad.err.trim());

  const first = await start(empty, { IDENTITY_URL: identity.url });
  check("first start in an empty folder answers health", true, `${first.msToHealthy} ms to first 200`);
  const health = (await (await fetch(`${first.url}/v1/health`)).json()) as {
    database: string;
    schema: { accepted: number[] };
  };
  check(
    "health reports the embedded database and schema 1",
    health.database === "ok" && health.schema.accepted.includes(1),
  );
  const served = new Uint8Array(await (await fetch(`${first.url}/v1/stats/catalogue`)).arrayBuffer());
  check("the catalogue is served byte for byte", Buffer.compare(served, readFileSync(catalogueFile)) === 0);
  await signInFlow(first.url);
  const noKey = await fetch(`${first.url}/v1/gamemode/profiles/${player.uuid}`);
  check(
    "without GAME_API_KEY a lookup answers no_upstream_key",
    noKey.status === 503 && ((await noKey.json()) as { error: { code: string } }).error.code === "no_upstream_key",
  );
  await bugReport(first.url);
  check(
    "only DATA_DIR was written",
    existsSync(join(empty, "data", "pg", "PG_VERSION")) && existsSync(join(empty, "data", "tally.lock")),
  );

  const second = Bun.spawnSync([binary], { cwd: empty, env: cleanEnv({ PORT: "0", HOST: "127.0.0.1" }) });
  check(
    "a second process on the same DATA_DIR is refused",
    second.exitCode === 1 && second.stderr.toString().includes("in use by another tally"),
    second.stderr.toString().trim(),
  );

  const code = await stop(first);
  check("SIGTERM stops it with exit code 0", code === 0 && first.output().includes('"msg":"stopped"'));
  const listed = await run(["reports"], empty);
  check(
    "tally reports lists the problem by count",
    // The list names each problem by its exception and the mod's frame it was thrown at (issue 38).
    listed.code === 0 &&
      /^1\s+2\s+.*java\.lang\.IllegalStateException at dev\.tally\.mod\.Smoke\.run$/m.test(listed.out),
    listed.out.trim().split("\n")[1] ?? listed.err.trim(),
  );
  check(
    "the lock is released (the file stays, emptied)",
    readFileSync(join(empty, "data", "tally.lock"), "utf8") === "",
  );

  // The mod's own catalogue, formatted differently, must come back exactly as the file holds it.
  const ownCatalogue = join(empty, "mod-catalogue.json");
  const ownBytes =
    JSON.stringify({ ...JSON.parse(readFileSync(catalogueFile, "utf8")), catalogueVersion: 42 }, null, "\t") + "\r\n";
  await Bun.write(ownCatalogue, ownBytes);
  const again = await start(empty, {
    CATALOGUE_FILE: ownCatalogue,
    METRICS_ENABLED: "true",
    ADMIN_TOKEN: "smoke-admin-token-123-4e5f6a7b8c9d0e1f",
    ...profileEnv,
  });
  check("second start on the same folder answers health", true, `${again.msToHealthy} ms to first 200`);
  check("a restart applies no migration again", !again.output().includes("migrations applied"));
  const own = await fetch(`${again.url}/v1/stats/catalogue`);
  // A request's metric is recorded once its answer is sent: ask once more, then read.
  await fetch(`${again.url}/v1/stats/catalogue`);
  const metricsText = await (await fetch(`${again.url}/metrics`)).text();
  check(
    "GET /metrics answers Prometheus text with request counts",
    metricsText.includes('tally_http_requests_total{route="/v1/health",method="GET",status="200"}'),
  );
  check(
    "CATALOGUE_FILE is served byte for byte",
    (await own.text()) === ownBytes && own.headers.get("x-catalogue-version") === "42",
  );
  await profilesFlow(again.url);
  // A backup while the service runs (through it, with ADMIN_TOKEN), restored into a new folder.
  const backupFile = join(empty, "backup.tgz");
  const port = new URL(again.url).port;
  const backup = await run(["backup", backupFile], empty, {
    PORT: port,
    HOST: "127.0.0.1",
    ADMIN_TOKEN: "smoke-admin-token-123-4e5f6a7b8c9d0e1f",
  });
  check(
    "tally backup while the service runs",
    backup.code === 0 && existsSync(backupFile),
    backup.err.trim() || backup.out.trim(),
  );
  check("SIGTERM again", (await stop(again)) === 0);
  const restoredDir = mkdtempSync(join(tmpdir(), "tally-smoke-restore-"));
  const restore = await run(["restore", backupFile], restoredDir);
  // The bug report filed earlier in this run is in the restored database.
  const restoredReports = await run(["reports"], restoredDir);
  check(
    "tally restore into an empty folder brings the data back",
    restore.code === 0 && restoredReports.out.includes("java.lang.IllegalStateException at dev.tally.mod.Smoke.run"),
    restore.err.trim() || restore.out.trim(),
  );
  const restored = await start(restoredDir, {});
  check("the restored folder serves", (await fetch(`${restored.url}/v1/health`)).status === 200);
  await stop(restored);
  rmSync(restoredDir, { recursive: true, force: true });

  if (postgresUrl) {
    const db = await createPostgresDatabase();
    try {
      const pgDir = mkdtempSync(join(tmpdir(), "tally-smoke-pg-"));
      const pg = await start(pgDir, { DATABASE_URL: db.url, IDENTITY_URL: identity.url });
      check("start on Postgres answers health", true, `${pg.msToHealthy} ms to first 200`);
      await signInFlow(pg.url);
      check("on Postgres nothing is written to the working folder", !existsSync(join(pgDir, "data")));
      check("SIGTERM on Postgres", (await stop(pg)) === 0);
      const pg2 = await start(pgDir, {
        DATABASE_URL: db.url,
        DEV_SIGNIN: "true",
        AUTH_RATE_LIMIT_PER_MINUTE: "0",
        LOOKUP_RATE_LIMIT_PER_MINUTE: String(SHARED_LIMIT),
      });
      check("second start on Postgres", true, `${pg2.msToHealthy} ms to first 200`);
      const pg3 = await start(pgDir, {
        DATABASE_URL: db.url,
        DEV_SIGNIN: "true",
        AUTH_RATE_LIMIT_PER_MINUTE: "0",
        LOOKUP_RATE_LIMIT_PER_MINUTE: String(SHARED_LIMIT),
      });
      await twoInstances(pg2.url, pg3.url);
      await sharedRateLimit(pg2.url, pg3.url);
      await stop(pg3);
      await stop(pg2);
      rmSync(pgDir, { recursive: true, force: true });
    } finally {
      await db.drop();
    }
  }
} catch (e) {
  check("smoke test ran to the end", false, String(e));
} finally {
  rmSync(empty, { recursive: true, force: true });
  identity.stop();
  gameApi.stop();
  images.stop();
  sessionServer.stop();
}
console.log(`smoke: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
