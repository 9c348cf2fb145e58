// Scenario 10: every upstream slow at once. The fakes of test/support/fakes (game API, name service,
// identity provider with its profile endpoint, texture server, chat webhook) answer as the real
// services do; in front of each sits a proxy on loopback that passes the request on at once and
// then either holds the answer for 30 s ("late": the upstream did the work, the answer is late) or
// sends the headers and trickles the body a byte at a time ("trickle"). Meanwhile accounts upload,
// and look-ups, sign-ins, head images and bug reports are probed one after another. Each probe must
// be answered within its upstream timeouts (two calls in a row for a look-up or a head), never a
// 500; uploads keep their latency; the service's sockets and memory come back. The chat outbox, a
// background job, waits for the chat's answer (CHAT_TIMEOUT_MS, above the 30 s late answer) rather
// than timing it out and posting again: the creations answered late and those trickled in each
// make exactly one thread, and once the chat is fast again every problem has its thread. (The
// chat's trickle is faster than the others', 5 ms a byte: the message answering a new thread takes
// seconds, past UPSTREAM_TIMEOUT_MS yet within CHAT_TIMEOUT_MS; one that never ends is cut there
// and its problem waits CHAT_UNCERTAIN_PAUSE_MS, test/reports/chat-slow.test.ts.) The phases run
// trickle before late, so the one outbox call the late answer holds for 30 s comes last.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeGameApi, hypixelProfile } from "../support/fakes/game-api.ts";
import { fakeIdentity } from "../support/fakes/identity.ts";
import { fakeNames } from "../support/fakes/names.ts";
import { fakeDiscord } from "../support/fakes/discord.ts";
import { fakeImageServer, fakeSessionServer, hashOf, skinPng } from "../support/fakes/skins.ts";
import { firstDay, runLoad, signIn } from "./load.ts";
import type { Report } from "./report.ts";
import { openFds, rssMb, sampleRss, startService, stopService, type Service } from "./service.ts";

const TIMEOUT_MS = 2000;
const PHASE_MS = 8000;
/** Two upstream calls in a row at most per request, and slack for a busy shared machine: far below the 30 s late answer. */
const ANSWER_LIMIT_MS = 2 * TIMEOUT_MS + 5000;
const LATE_MS = 30_000;
/** The chat outbox's own deadline (a background job): above the late answer. */
const CHAT_TIMEOUT_MS = 45_000;
/** Each uploading account's pace, and each probe loop's. */
const UPLOAD_EVERY_MS = 50;
const PROBE_EVERY_MS = 25;

type Mode = "fast" | "late" | "trickle";

/** A proxy in front of a fake: the fake does the work at once; the answer comes late or a byte at a time. */
function slowProxy(targetOf: (path: string) => string) {
  const state = {
    mode: "fast" as Mode,
    byteEveryMs: 250,
    /** POSTs without thread_id (for the chat: new threads, by thread_name) and the mode they met. */
    creations: [] as { mode: Mode; name: string }[],
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const headers = new Headers(req.headers);
      headers.delete("host");
      const sent = req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer();
      if (req.method === "POST" && !url.searchParams.has("thread_id")) {
        let name = "";
        try {
          name = String((JSON.parse(new TextDecoder().decode(sent)) as { thread_name?: unknown }).thread_name ?? "");
        } catch {}
        state.creations.push({ mode: state.mode, name });
      }
      const res = await fetch(targetOf(url.pathname) + url.pathname + url.search, {
        method: req.method,
        headers,
        body: sent,
        redirect: "manual",
      });
      const body = new Uint8Array(await res.arrayBuffer());
      const out = new Headers(res.headers);
      out.delete("content-length");
      out.delete("content-encoding");
      const mode = state.mode;
      if (mode === "late") await Bun.sleep(LATE_MS);
      if (mode !== "trickle" || body.byteLength === 0)
        return new Response(body.byteLength ? body : null, { status: res.status, headers: out });
      let i = 0;
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await Bun.sleep(state.byteEveryMs);
          controller.enqueue(body.subarray(i, i + 1));
          if (++i >= body.byteLength) controller.close();
        },
      });
      return new Response(stream, { status: res.status, headers: out });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, state, stop: () => server.stop(true) };
}

type Probe = { route: string; phase: Mode; status: number; code?: string; ms: number };

export async function slowUpstreamsScenario(report: Report, binary: string, scenario: number) {
  const label = "slow upstreams";
  const alice = { uuid: "0f1e2d3c4b5a69788796a5b4c3d2e1f0", name: "Alice_01", accessToken: "alice-access-token" };
  const skin = skinPng();
  const images = fakeImageServer();
  images.files.set(`/texture/${hashOf(skin)}`, skin);
  const identity = fakeIdentity([alice]);
  const session = fakeSessionServer([{ ...alice, skinUrl: `http://textures.minecraft.net/texture/${hashOf(skin)}` }]);
  const names = fakeNames([{ uuid: alice.uuid, name: alice.name }]);
  const api = fakeGameApi({ key: "slow-key", limit: 100_000 });
  api.players.set(alice.uuid, [hypixelProfile(alice.uuid)]);
  const discord = fakeDiscord();
  const proxies = {
    game: slowProxy(() => api.url),
    names: slowProxy(() => names.url),
    identity: slowProxy((path) => (path.startsWith("/session/minecraft/profile/") ? session.url : identity.url)),
    textures: slowProxy(() => images.url),
    chat: slowProxy(() => discord.url),
  };
  const setMode = (m: Mode) => {
    for (const p of Object.values(proxies)) p.state.mode = m;
  };
  const cwd = mkdtempSync(join(tmpdir(), "tally-faults-slow-"));
  let service: Service | undefined;
  try {
    service = await startService(binary, cwd, {
      DATA_DIR: join(cwd, "data"),
      UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
      GAME_API_URL: proxies.game.url,
      GAME_API_KEY: "slow-key",
      NAMES_URL: proxies.names.url,
      IDENTITY_URL: proxies.identity.url,
      TEXTURES_URL: proxies.textures.url,
      CHAT_WEBHOOK_URL: discord.webhookUrl.replace(discord.url, proxies.chat.url),
      JOB_REPORTS_CHAT_INTERVAL_MS: "300",
      CHAT_RETRY_BASE_MS: "300",
      CHAT_RETRY_MAX_MS: "1000",
      CHAT_TIMEOUT_MS: String(CHAT_TIMEOUT_MS),
      LOOKUP_RATE_LIMIT_PER_MINUTE: "0",
      REPORT_RATE_LIMIT_PER_HOUR: "0",
      ASSET_RATE_LIMIT_PER_MINUTE: "0",
      ...(process.env.FAULTS_DUMP ? { LOG_LEVEL: "info" } : {}),
    });
    const url = service.url;
    proxies.chat.state.byteEveryMs = 5;
    const accounts = await Promise.all(Array.from({ length: 4 }, (_, i) => signIn(url, scenario, i)));
    let phase: Mode = "fast";
    const latencies: Record<Mode, number[]> = { fast: [], late: [], trickle: [] };
    let uploading = true;
    const load = runLoad({
      url,
      scenario,
      accounts,
      from: firstDay(),
      more: () => uploading,
      // Paced (4 accounts, 80 uploads/s; the probes too): the service's memory grows with what it
      // writes to the embedded database, so a load as fast as the machine allows made the memory
      // check below a measure of the machine's speed (+108 MB for 2 996 uploads and 759 probes,
      // +162 MB for 3 842 and 854, the same binary).
      everyMs: UPLOAD_EVERY_MS,
      onReply: (r, _at, ms) => r.status === 200 && latencies[phase].push(ms),
    });

    const probes: Probe[] = [];
    let n = 0;
    const timed = async (route: string, fn: () => Promise<Response>) => {
      const t0 = performance.now();
      const res = await fn().catch(() => null);
      const body = res ? ((await res.json().catch(() => ({}))) as { error?: { code?: string } }) : {};
      if (res?.headers.get("content-type")?.startsWith("image/")) await res.arrayBuffer().catch(() => {});
      probes.push({
        route,
        phase,
        status: res?.status ?? 0,
        code: body.error?.code,
        ms: Math.round(performance.now() - t0),
      });
    };
    const post = (path: string, body: unknown) =>
      fetch(url + path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
    const get = (path: string) => fetch(url + path, { signal: AbortSignal.timeout(60_000) });
    // Paced like the uploads: a probe the service answers at once waits out the rest of its slot, so
    // what the probes write (names, heads, sign-ins) does not grow with the machine's speed either.
    const probeLoop = async (until: number, fn: () => Promise<void>) => {
      while (performance.now() < until) {
        const next = performance.now() + PROBE_EVERY_MS;
        await fn();
        const early = next - performance.now();
        if (early > 0) await Bun.sleep(early);
      }
    };
    const reportTitles: string[] = [];
    const runPhase = async (m: Mode) => {
      phase = m;
      setMode(m);
      const until = performance.now() + PHASE_MS;
      await Promise.all([
        // A name seen for the first time each time: the cache cannot answer it.
        probeLoop(until, () =>
          timed("lookup", () => get(`/v1/players/${m === "fast" ? alice.name : `Slow_${++n}`}/summary`)),
        ),
        probeLoop(until, async () => {
          const challenge = (await (await post("/v1/auth/challenge", {})).json()) as { serverId: string };
          await identity.join(alice, challenge.serverId);
          await timed("sign-in", () =>
            post("/v1/auth/verify", { serverId: challenge.serverId, name: alice.name, zone: "UTC" }),
          );
        }),
        probeLoop(until, () =>
          timed("head", () =>
            get(`/v1/assets/head/${m === "fast" ? alice.uuid : (0xabc000 + ++n).toString(16).padStart(32, "0")}.png`),
          ),
        ),
        probeLoop(until, async () => {
          const title = `Slow chat problem ${m} #${++n}.`;
          reportTitles.push(title);
          await timed("report", () =>
            post("/v1/reports/general", {
              schema: 1,
              modVersion: "1.4.0",
              minecraft: "1.21.4",
              title,
              stackTrace: `java.lang.IllegalStateException: ${title}\n\tat com.example.slow.Probe${n}.run(Probe${n}.java:1)`,
            }),
          );
          await Bun.sleep(500);
        }),
      ]);
    };

    await Bun.sleep(1000);
    await runPhase("fast");
    const rssBefore = rssMb(service);
    const fdsBefore = openFds(service);
    const rss = sampleRss(service);
    await runPhase("trickle");
    await runPhase("late");
    const memory = rss.stop();
    const fdsSlow = openFds(service);
    phase = "fast";
    setMode("fast");
    uploading = false;
    const sent = await load;

    for (const m of ["fast", "trickle", "late"] as const) {
      const these = probes.filter((p) => p.phase === m);
      const errors = these.filter((p) => p.status === 0 || p.status === 500);
      const slow = these.filter((p) => p.ms > ANSWER_LIMIT_MS);
      const routes = [...new Set(these.map((p) => p.route))].map((r) => {
        const of = these.filter((p) => p.route === r);
        const codes = [...new Set(of.map((p) => `${p.status}${p.code ? ` ${p.code}` : ""}`))].join(",");
        return `${r} ${of.length}x max ${Math.max(...of.map((p) => p.ms))} ms [${codes}]`;
      });
      report.check(
        `${label} (${m}): every look-up, sign-in, head and report is answered within ${ANSWER_LIMIT_MS} ms, never a 500`,
        these.length > 0 && errors.length === 0 && slow.length === 0,
        routes.join("; "),
      );
    }
    const fastOk = probes.filter((p) => p.phase === "fast" && p.status !== 200);
    report.check(
      `${label}: with fast upstreams every probe answers 200`,
      fastOk.length === 0,
      fastOk
        .slice(0, 3)
        .map((p) => `${p.route} ${p.status} ${p.code}`)
        .join(", "),
    );
    const pct = (xs: number[], p: number) =>
      Math.round([...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? -1);
    const p99 = { fast: pct(latencies.fast, 99), late: pct(latencies.late, 99), trickle: pct(latencies.trickle, 99) };
    report.check(
      `${label}: uploads go on while every upstream is slow (their p99 is reported, not asserted)`,
      latencies.late.length > 0 && latencies.trickle.length > 0 && sent.every((s) => s.acked || !uploading),
      `p50 ${pct(latencies.fast, 50)}/${pct(latencies.late, 50)}/${pct(latencies.trickle, 50)} ms, p99 ${p99.fast}/${p99.late}/${p99.trickle} ms (fast/late/trickle), ${latencies.fast.length}/${latencies.late.length}/${latencies.trickle.length} uploads`,
    );

    // The outbox: once the chat answers again, every problem gets its one thread.
    const problems = new Set(reportTitles);
    // The last late creation holds the outbox until its answer comes (30 s after it was sent).
    const deadline = performance.now() + LATE_MS + 20_000;
    const threadNames = () => [...discord.threads.values()].map((t) => t.name);
    while (
      performance.now() < deadline &&
      ![...problems].every((title) => threadNames().some((name) => name.includes(title)))
    )
      await Bun.sleep(100);
    const posted = [...problems].filter((title) => threadNames().some((name) => name.includes(title)));
    const twice = [...problems].filter((title) => threadNames().filter((name) => name.includes(title)).length > 1);
    const chatLog = () =>
      service!
        .output()
        .split("\n")
        .filter((l) => /chat|reports\.chat|job failed/.test(l))
        .slice(-3)
        .map((l) => l.slice(0, 400))
        .join(" | ");
    report.check(
      `${label}: once the chat is fast again the outbox posts every problem (it did not stall)`,
      posted.length === problems.size,
      `${posted.length} of ${problems.size} problems have a thread${posted.length < problems.size ? `; ${chatLog()}` : ""}`,
    );
    if (process.env.FAULTS_DUMP) await Bun.write(process.env.FAULTS_DUMP, service.output());
    const extra = discord.threads.size - problems.size;
    const uncertain = service
      .output()
      .split("\n")
      .filter((l) => l.includes("chat did not answer a post") || l.includes("chat accepted a post")).length;
    const creations = proxies.chat.state.creations;
    const created = { late: 0, trickle: 0 };
    // Discord's webhooks take no idempotency key (docs/decisions.md, "Chat outbox delivery"): a creation
    // whose answer is late or trickles in must be waited for, never timed out and sent again.
    for (const m of ["late", "trickle"] as const) {
      const names = [...new Set(creations.filter((c) => c.mode === m).map((c) => c.name))];
      created[m] = names.length;
      const threadsOf = names.map((n) => threadNames().filter((t) => t === n).length);
      const more = threadsOf.reduce((a, b) => a + Math.max(0, b - 1), 0);
      report.check(
        `${label}: a new thread whose answer comes ${m === "late" ? `${LATE_MS / 1000} s late` : "a byte at a time"} is created once (no extra thread)`,
        names.length > 0 && threadsOf.every((n) => n === 1),
        `${names.length} problems' creations met the ${m} chat: ${threadsOf.join("/")} threads each (${more} extra)`,
      );
    }
    report.check(
      `${label}: one thread per problem in all (${problems.size} problems)`,
      extra === 0 && twice.length === 0,
      `${discord.threads.size} threads, ${extra} extra; ${uncertain} posts without an answer`,
    );

    await Bun.sleep(2500); // connections the upstreams left open close on their own
    const fdsAfter = openFds(service);
    report.check(
      `${label}: open file descriptors come back (no pool of upstream sockets grows)`,
      fdsAfter <= fdsBefore + 10,
      `${fdsBefore} before, ${fdsSlow} while slow, ${fdsAfter} after`,
    );
    report.check(
      `${label}: memory stays bounded`,
      memory.peak - rssBefore <= 150,
      `${rssBefore} MB before, peak ${memory.peak} MB`,
    );
    const code = await stopService(service);
    report.check(`${label}: the service stops cleanly`, code === 0, `exit ${code}`);
    report.figures(label, {
      probes: probes.length,
      slowestLateMs: Math.max(...probes.filter((p) => p.phase === "late").map((p) => p.ms)),
      slowestTrickleMs: Math.max(...probes.filter((p) => p.phase === "trickle").map((p) => p.ms)),
      uploadP99FastMs: p99.fast,
      uploadP99LateMs: p99.late,
      uploadP99TrickleMs: p99.trickle,
      uploads: sent.length,
      problems: problems.size,
      threads: discord.threads.size,
      extraThreads: extra,
      chatCreationsLate: created.late,
      chatCreationsTrickle: created.trickle,
      chatPostsWithoutAnswer: uncertain,
      rssBeforeMb: rssBefore,
      rssPeakMb: memory.peak,
      fds: `${fdsBefore}/${fdsSlow}/${fdsAfter}`,
    });
  } finally {
    if (service && service.proc.exitCode === null) service.proc.kill("SIGKILL");
    for (const p of Object.values(proxies)) p.stop();
    for (const f of [images, identity, session, names, api, discord]) f.stop();
    rmSync(cwd, { recursive: true, force: true });
  }
}
