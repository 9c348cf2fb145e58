// Boundary: other users on the same host (issue 22, finding 5). DATA_DIR holds every token hash,
// share key and the pseudonym key: it is created 0700, everything the service keeps in it is 0600
// (whatever the umask, the seed archive or an older version left), so is a restored database, and
// a backup is written 0600 with 0600 entries. A folder open to others is reported at start-up.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, lstatSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main, type MainOptions } from "../../src/main.ts";
import { connectEmbedded } from "../../src/db/connect-embedded.ts";
import { testSeed } from "../support/db.ts";
import { tempDirs } from "../support/temp.ts";

setDefaultTimeout(60_000);
const tempDir = tempDirs("files");

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Every mode under `root` that is not 0700 for a folder or 0600 for a file, as "path mode". */
function notPrivate(root: string): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return;
    const want = st.isDirectory() ? 0o700 : 0o600;
    if ((st.mode & 0o777) !== want) out.push(`${path} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(root);
  return out;
}

/** Counts files under `root` (to show the walk saw the database). */
const filesUnder = (root: string): number =>
  readdirSync(root, { withFileTypes: true }).reduce(
    (n, e) => n + (e.isDirectory() ? filesUnder(join(root, e.name)) : 1),
    0,
  );

async function run(argv: string[], env: Record<string, string>, extra: MainOptions = {}) {
  let out = "";
  let err = "";
  const logs: string[] = [];
  const code = await main(argv, {
    env,
    out: (t) => (out += t),
    err: (t) => (err += t),
    logWrite: (l) => logs.push(l),
    ...extra,
  });
  return { code, out, err, logs };
}

/** The entries of a gzip tarball: name and mode. */
function tarEntries(gz: Uint8Array): { name: string; mode: number; type: string }[] {
  const tar = Bun.gunzipSync(gz as Uint8Array<ArrayBuffer>);
  const text = (at: number, len: number) =>
    new TextDecoder()
      .decode(tar.subarray(at, at + len))
      .replace(/\0.*$/s, "")
      .trim();
  const out: { name: string; mode: number; type: string }[] = [];
  for (let at = 0; at + 512 <= tar.byteLength; ) {
    if (tar.subarray(at, at + 512).every((b) => b === 0)) break;
    const size = parseInt(text(at + 124, 12) || "0", 8);
    out.push({ name: text(at, 100), mode: parseInt(text(at + 100, 8), 8), type: String.fromCharCode(tar[at + 156]!) });
    // A tar reader refuses a header whose checksum is wrong: check it as one would.
    const header = new Uint8Array(tar.subarray(at, at + 512));
    header.fill(0x20, 148, 156);
    expect(header.reduce((s, b) => s + b, 0)).toBe(parseInt(text(at + 148, 8), 8));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

describe("DATA_DIR", () => {
  test("a new one is 0700 and every file of the database in it 0600, even under umask 000", async () => {
    const dir = join(tempDir(), "data");
    const before = process.umask(0o000);
    try {
      const d = await connectEmbedded(dir, { seed: testSeed });
      await d.close();
    } finally {
      process.umask(before);
    }
    expect(modeOf(dir)).toBe(0o700);
    expect(filesUnder(join(dir, "pg"))).toBeGreaterThan(500);
    expect(notPrivate(dir)).toEqual([]);
  });

  test("files an older version left open (0666, 0755) are made private on the next open", async () => {
    const dir = join(tempDir(), "data");
    await (await connectEmbedded(dir, { seed: testSeed })).close();
    chmodSync(join(dir, "pg", "PG_VERSION"), 0o666);
    chmodSync(join(dir, "pg", "global"), 0o755);
    chmodSync(join(dir, "tally.lock"), 0o644);
    await (await connectEmbedded(dir)).close();
    expect(notPrivate(dir)).toEqual([]);
  });

  test("a folder open to others is reported at start-up, a private one is not", async () => {
    const dir = join(tempDir(), "data");
    await (await connectEmbedded(dir, { seed: testSeed })).close();
    chmodSync(dir, 0o755);
    const open = await run(["migrate"], { DATA_DIR: dir });
    expect(open.code).toBe(0);
    const served = async () => {
      const r = run(
        ["serve"],
        { DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1" },
        { stopSignal: Promise.resolve("test") },
      );
      return (await r).logs.filter((l) => l.includes('"level":"warn"'));
    };
    expect((await served()).join("\n")).toContain(
      `DATA_DIR ${dir} is open to other local users (mode 0755): run chmod 700 on it`,
    );
    chmodSync(dir, 0o700);
    expect((await served()).join("\n")).not.toContain("open to other local users");
  });
});

describe("backups", () => {
  test("tally backup writes a 0600 file whose entries are 0600 (folders 0700), also over an existing 0644 file", async () => {
    const dir = join(tempDir(), "data");
    await (await connectEmbedded(dir, { seed: testSeed })).close();
    const file = join(tempDir(), "tally.tgz");
    writeFileSync(file, "old");
    chmodSync(file, 0o644);
    const before = process.umask(0o022);
    try {
      expect((await run(["backup", file], { DATA_DIR: dir })).code).toBe(0);
    } finally {
      process.umask(before);
    }
    expect(modeOf(file)).toBe(0o600);
    const entries = tarEntries(new Uint8Array(await Bun.file(file).arrayBuffer()));
    expect(entries.length).toBeGreaterThan(500);
    const open = entries.filter((e) => e.mode !== (e.type === "5" ? 0o700 : 0o600));
    expect(open).toEqual([]);
  });

  test("tally restore leaves every file 0600, whatever modes the archive carries", async () => {
    const dir = join(tempDir(), "data");
    await (await connectEmbedded(dir, { seed: testSeed })).close();
    const file = join(tempDir(), "tally.tgz");
    expect((await run(["backup", file], { DATA_DIR: dir })).code).toBe(0);
    const target = join(tempDir(), "restored");
    expect((await run(["restore", file], { DATA_DIR: target })).code).toBe(0);
    expect(notPrivate(target)).toEqual([]);
    // The seed archive itself carries entries open to others (0750 folders, 0644 files); the folder
    // made from it does not (the first test).
    const seedEntries = tarEntries(new Uint8Array(await (await testSeed())!.arrayBuffer()));
    expect(seedEntries.some((e) => (e.mode & 0o077) !== 0)).toBe(true);
  });
});
