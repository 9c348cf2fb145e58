// The link preview card /u/<name>/card.png (in-process, request in, bytes out): the first card of
// a process (resvg's wasm compiled, the fonts read, one render), a card after new numbers (the
// figures read, one render), a warm card (the account unchanged: from memory), and a card after
// the 60 s recheck (the figures read, the same SVG: no render). Wall time and CPU time per card,
// p50. On Postgres when DATABASE_URL is set, else the embedded database. Asserts nothing.
//   bun bench/cards.ts [--runs 15]
import { testApp } from "../test/support/app.ts";
import { backend } from "../test/support/db.ts";
import { fixtureCatalogue } from "../test/support/fixtures.ts";
import { seedPlayer, SEED_NOW, TODAY } from "../test/web/seed.ts";
import { envelope, PROFILE } from "../test/support/uploads.ts";

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1]) || 15;

const t = await testApp({ settings: { devSignin: true, catalogueFile: fixtureCatalogue }, now: SEED_NOW });
const seeded = await seedPlayer(t, { name: "Bench_Card", findable: true });

const p50 = (a: number[]) => Math.round([...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]! * 10) / 10;
type Row = { case: string; runs: number; wallP50Ms: number; cpuP50Ms: number; bytes: number };
const rows: Row[] = [];

async function measure(name: string, n: number, before?: () => Promise<void>) {
  const wall: number[] = [];
  const cpu: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    if (before) await before();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await t.request("/u/Bench_Card/card.png");
    bytes = (await res.arrayBuffer()).byteLength;
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    if (res.status !== 200) throw new Error(`card: ${res.status}`);
  }
  rows.push({ case: name, runs: n, wallP50Ms: p50(wall), cpuP50Ms: p50(cpu), bytes });
}

let blocks = 1000;
await measure("cold: first card of the process", 1);
await measure("cold: new numbers (read + render)", runs, async () => {
  t.clock.advance(1000);
  const env = envelope(t, {
    profile: { id: PROFILE, cuteName: "Pomegranate" },
    counters: [{ profileId: PROFILE, scope: "day", day: TODAY, rows: [{ k: "mining.blocks.total", v: blocks++ }] }],
  });
  const res = await seeded.player.send(env);
  if (res.status !== 200) throw new Error(`upload: ${res.status}`);
});
await measure("warm: account unchanged (memory)", runs * 2);
await measure("warm: after the 60 s recheck (read, no render)", runs, async () => {
  t.clock.advance(61_000);
});
await t.close();

console.log(`link preview card on ${backend}, ${runs} runs`);
console.table(rows);
console.log(JSON.stringify({ backend: backend, rows }));
