// An upstream image bomb against the compiled binary: the texture server answers a skin whose
// header says 64x64 RGBA (16 448 bytes of scanlines) but whose data inflates to 250 MB (about
// 243 KB on the wire, under IMAGE_MAX_BYTES). Per binary and run, a fresh process on the embedded
// database: one honest skin first (code paths warm), then the bomb: its answer, wall time, and the
// process's peak resident memory over the request (VmHWM, reset just before) minus the resident
// memory before it; then another honest skin and its time. Binaries are interleaved run by run.
// Reports medians; asserts nothing.
//   bun run build && bun bench/image-bomb.ts [dist/tally [baseline/tally ...]] [--runs N]
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { bombPng, fakeImageServer, hashOf, itemPng, skinPng } from "../test/support/fakes/skins.ts";
import { startBinary } from "./process.ts";

const args = process.argv.slice(2);
const runs = args.includes("--runs") ? Number(args[args.indexOf("--runs") + 1]) : 3;
const binaries = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--runs").map((a) => resolve(a));
if (!binaries.length) binaries.push(resolve("dist/tally"));

const images = fakeImageServer();
const bomb = await bombPng(250_000_000);
const bombHash = hashOf(bomb);
images.files.set(`/texture/${bombHash}`, bomb);
const honest = skinPng();
const honestHash = hashOf(honest);
images.files.set(`/texture/${honestHash}`, honest);

const memory = (pid: number, field: "VmRSS" | "VmHWM") =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

type Run = { binary: string; status: number; bombMs: number; extraMiB: number; honestStatus: number; honestMs: number };
const results: Run[] = [];

async function once(binary: string, run: number): Promise<Run> {
  const service = await startBinary(binary, { TEXTURES_URL: images.url, ASSET_RATE_LIMIT_PER_MINUTE: "0" });
  const { url, pid } = service;
  try {
    // Warm: one honest skin (a fresh one each run: every process has its own database anyway).
    const warm = itemPng(64); // 64x64: a skin by size
    const warmHash = hashOf(warm);
    images.files.set(`/texture/${warmHash}`, warm);
    await (await fetch(`${url}/v1/assets/skin/${warmHash}.png`)).arrayBuffer();
    const before = memory(pid, "VmRSS");
    writeFileSync(`/proc/${pid}/clear_refs`, "5"); // resets VmHWM to the current RSS
    let t0 = performance.now();
    const res = await fetch(`${url}/v1/assets/skin/${bombHash}.png`);
    await res.arrayBuffer();
    const bombMs = performance.now() - t0;
    const extraMiB = memory(pid, "VmHWM") - before;
    t0 = performance.now();
    const ok = await fetch(`${url}/v1/assets/skin/${honestHash}.png`);
    await ok.arrayBuffer();
    const honestMs = performance.now() - t0;
    return {
      binary: `${binary.replace(/\/dist\/tally$/, "")} #${run}`,
      status: res.status,
      bombMs,
      extraMiB,
      honestStatus: ok.status,
      honestMs,
    };
  } finally {
    await service.stop();
  }
}

for (let run = 1; run <= runs; run++) for (const binary of binaries) results.push(await once(binary, run));
images.stop();

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
const round = (n: number) => Math.round(n * 10) / 10;
const summary = binaries.map((binary) => {
  const mine = results.filter((r) => r.binary.startsWith(binary.replace(/\/dist\/tally$/, "")));
  return {
    binary,
    bombStatus: mine.map((r) => r.status).join(","),
    bombMsP50: round(median(mine.map((r) => r.bombMs))),
    extraPeakMiBP50: round(median(mine.map((r) => r.extraMiB))),
    honestSkinStatus: mine.map((r) => r.honestStatus).join(","),
    honestSkinMsP50: round(median(mine.map((r) => r.honestMs))),
  };
});
console.log(`image bomb: ${bomb.byteLength} bytes inflating to 250 MB, ${runs} runs per binary`);
console.table(summary);
console.log(JSON.stringify({ runs, bombBytes: bomb.byteLength, summary }));
