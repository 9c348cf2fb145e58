// `tally import <file> --account <name>`: the operator's import, by the same rules as the route,
// on an embedded database folder (the service stopped): the file taken, taken again changes
// nothing, another account's file needs --confirm-other-account, and bad arguments exit 2.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { main } from "../../src/main.ts";
import { testApp } from "../support/app.ts";
import { fixtureCatalogue } from "../support/fixtures.ts";
import { tempDirs } from "../support/temp.ts";
import { envelope, uploader, PROFILE } from "../support/uploads.ts";

setDefaultTimeout(60_000);

const tempDir = tempDirs("import-cli");
// The command runs on the system clock: the rows are of today, so none is past the seal horizon.
const NOW = Date.now();
const TODAY = new Date(NOW).toISOString().slice(0, 10);
let dataDir: string;
let file: string;
let otherFile: string;

beforeAll(async () => {
  // The source instance: one account with a day of rows, exported to a file (gzip).
  const source = await testApp({
    settings: { devSignin: true, catalogueFile: fixtureCatalogue },
    now: NOW,
    backend: "embedded",
  });
  const exportOf = async (name: string, uuid: string) => {
    const player = await uploader(source, { uuid, name, zone: "UTC" });
    const rows = [{ k: "mining.blocks.total", v: 12 }];
    await player.send(envelope(source, { counters: [{ profileId: PROFILE, scope: "day", day: TODAY, rows }] }));
    return (await source.request("/v1/stats/export", { headers: player.auth })).text();
  };
  const dir = tempDir();
  file = join(dir, "mover.json.gz");
  await Bun.write(file, Bun.gzipSync(new TextEncoder().encode(await exportOf("Mover", "d".repeat(32)))));
  otherFile = join(dir, "other.json");
  await Bun.write(otherFile, await exportOf("Other", "e".repeat(32)));
  await source.close();
  // The target instance's folder, with the account signed in once.
  dataDir = tempDir();
  const target = await testApp({
    settings: { devSignin: true, catalogueFile: fixtureCatalogue },
    now: NOW,
    dataDir,
    backend: "embedded",
  });
  await uploader(target, { uuid: "d".repeat(32), name: "Mover", zone: "UTC" });
  await target.close();
});
afterAll(() => {});

async function run(argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, {
    env: { DATA_DIR: dataDir, CATALOGUE_FILE: fixtureCatalogue, LOG_LEVEL: "error" },
    out: (t) => (out += t),
    err: (t) => (err += t),
  });
  return { code, out, err };
}

describe("tally import", () => {
  test("takes the file into the named account; a second time changes nothing", async () => {
    const first = await run(["import", file, "--account", "Mover"]);
    expect(first.err).toBe("");
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^imported .* into Mover \(format 2\)/);
    expect(first.out).toMatch(/counterRows\s+1 added, 0 replaced, 0 skipped, 0 refused/);
    const second = await run(["import", file, "--account", "Mover"]);
    expect(second.out).toMatch(/counterRows\s+0 added, 0 replaced, 1 skipped, 0 refused/);
  });

  test("another account's file (plain JSON) needs --confirm-other-account", async () => {
    const refused = await run(["import", otherFile, "--account", "Mover"]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("tally: import_other_account:");
    const taken = await run(["import", otherFile, "--account", "Mover", "--confirm-other-account"]);
    expect(taken.code).toBe(0);
    expect(taken.out).toContain("another account's file");
  });

  test("an unknown account or file exits 1; bad arguments exit 2", async () => {
    expect((await run(["import", file, "--account", "Nobody"])).err).toContain("no account named");
    expect((await run(["import", join(dataDir, "none.gz"), "--account", "Mover"])).code).toBe(1);
    expect((await run(["import", file])).code).toBe(2);
    expect((await run(["import", "--account", "Mover"])).code).toBe(2);
    expect((await run(["import", file, "--account", "Mover", "--what"])).code).toBe(2);
  });
});
