// The command line as a self-hoster meets it: help, version, check-config, migrate, serve, and a
// clean stop on SIGTERM.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDirs } from "./support/temp.ts";
import { main, type MainOptions } from "../src/main.ts";
import { settings } from "../src/config.ts";
import { VERSION } from "../src/version.ts";
import { lockDataDir, DataDirLockedError } from "../src/db/datadir-lock.ts";
import { createPostgresDatabase, postgresUrl, testSeed, backend, seedDataDir } from "./support/db.ts";

// These tests start the service, some as a child process: slower than the 5 s default on a busy machine.
setDefaultTimeout(30_000);

const tempDir = tempDirs("main");

async function run(argv: string[], env: Record<string, string> = {}, extra: MainOptions = {}) {
  let out = "";
  let err = "";
  const code = await main(argv, { env, out: (t) => (out += t), err: (t) => (err += t), ...extra });
  return { code, out, err };
}

describe("tally --help and --version", () => {
  test("--help lists the commands and every setting with its default", async () => {
    const { code, out } = await run(["--help"]);
    expect(code).toBe(0);
    for (const command of ["serve", "migrate", "check-config", "--version"]) expect(out).toContain(command);
    for (const s of Object.values(settings)) expect(out).toContain(s.env);
  });

  test("--version prints the version", async () => {
    expect(await run(["--version"])).toMatchObject({ code: 0, out: `tally ${VERSION}\n` });
  });

  test("an unknown command exits 2 and points at --help", async () => {
    const { code, err } = await run(["srve"]);
    expect(code).toBe(2);
    expect(err).toContain('unknown command "srve"');
    expect(err).toContain("--help");
  });
});

describe("tally check-config", () => {
  test("prints the effective settings with secrets masked", async () => {
    const { code, out } = await run(["check-config"], { GAME_API_KEY: "abc-secret-key", PORT: "9123" });
    expect(code).toBe(0);
    expect(out).toContain("settings are valid");
    expect(out).toMatch(/PORT\s+9123/);
    expect(out).not.toContain("abc-secret-key");
  });

  test("names each optional capability that is off and the setting that turns it on", async () => {
    const bare = await run(["check-config"], {});
    expect(bare.code).toBe(0);
    const off = bare.out.slice(bare.out.indexOf("switched off"));
    for (const setting of ["GAME_API_KEY", "ADMIN_TOKEN", "CHAT_WEBHOOK_URL", "ITEM_IMAGES_URL", "METRICS_ENABLED"])
      expect(off).toContain(`turn on with ${setting}`);
    expect(off).toContain("profile lookups and profile pages: off");
    expect(off).toContain("503 no_upstream_key");

    const everything = await run(["check-config"], {
      GAME_API_KEY: "abc-secret-key",
      ADMIN_TOKEN: "a".repeat(32),
      CHAT_WEBHOOK_URL: "https://chat.example/webhook",
      ITEM_IMAGES_URL: "https://items.example",
      METRICS_ENABLED: "true",
      DEV_SIGNIN: "true",
    });
    expect(everything.out).toContain("nothing optional is switched off");
    expect(everything.out).not.toContain("abc-secret-key");
  });

  test("the bug reports' second privacy layer is on by default; turned off, it is named with its setting", async () => {
    const offPart = (out: string) => out.slice(out.indexOf("switched off"));
    expect(offPart((await run(["check-config"], {})).out)).not.toContain("PRIVACY_UNKNOWN_WORDS");
    const off = await run(["check-config"], { PRIVACY_UNKNOWN_WORDS: "false" });
    expect(off.code).toBe(0);
    expect(offPart(off.out)).toContain("turn on with PRIVACY_UNKNOWN_WORDS=true");
  });

  test("a bad setting exits 2 naming the variable and what it accepts", async () => {
    const { code, err } = await run(["check-config"], { PORT: "eighty" });
    expect(code).toBe(2);
    expect(err).toContain('PORT="eighty": expected an integer from 0 to 65535');
  });

  test("a broken catalogue file exits 1 with the path of the fault", async () => {
    const file = join(tempDir(), "catalogue.json");
    const builtIn = JSON.parse(readFileSync(join(import.meta.dir, "../catalogue/catalogue.json"), "utf8"));
    writeFileSync(file, JSON.stringify({ ...builtIn, catalogueVersion: 0 }));
    const { code, err } = await run(["check-config"], { CATALOGUE_FILE: file });
    expect(code).toBe(1);
    expect(err).toContain(`catalogue ${file} is not valid at /catalogueVersion`);
  });

  test("an unreachable Postgres stops start-up with a clear message", async () => {
    const { code, err } = await run(["migrate"], { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" });
    expect(code).toBe(1);
    expect(err).toContain("cannot connect to DATABASE_URL");
  });
});

/** Settings that point a command at a fresh database of the backend under test. */
async function freshStorage(): Promise<{ env: Record<string, string>; dataDir: string; done(): Promise<void> }> {
  const dataDir = tempDir();
  if (!postgresUrl) return { env: { DATA_DIR: dataDir }, dataDir, done: async () => {} };
  const created = await createPostgresDatabase();
  return { env: { DATABASE_URL: created.url }, dataDir, done: created.drop };
}

describe(`tally migrate and serve on the ${backend} database`, () => {
  test("migrate brings a new database up to date, then has nothing to do", async () => {
    const storage = await freshStorage();
    const seed = await testSeed();
    const first = await run(["migrate"], storage.env, { seed: async () => seed });
    expect(first.code).toBe(0);
    // The embedded seed is already migrated; a new Postgres database is migrated now.
    expect(first.out).toMatch(postgresUrl ? /applied \d+ migration/ : /up to date/);
    expect(await run(["migrate"], storage.env)).toMatchObject({ code: 0, out: "the database is up to date\n" });
    await storage.done();
  });

  test("serve answers health, then stops cleanly and releases the data folder", async () => {
    const storage = await freshStorage();
    const seed = await testSeed();
    let stop!: (signal: string) => void;
    const stopSignal = new Promise<string>((r) => (stop = r));
    let url!: string;
    const listening = new Promise<void>((resolve) => {
      void run(
        ["serve"],
        { ...storage.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "error" },
        {
          seed: async () => seed,
          stopSignal,
          onListening: (u) => ((url = u), resolve()),
        },
      ).then((r) => exited.resolve(r.code));
    });
    const exited = Promise.withResolvers<number>();
    await listening;
    const health = await fetch(`${url}/v1/health`);
    expect(health.status).toBe(200);
    if (!postgresUrl) expect(() => lockDataDir(storage.dataDir)).toThrow(DataDirLockedError);
    stop("test");
    expect(await exited.promise).toBe(0);
    if (!postgresUrl) lockDataDir(storage.dataDir)(); // released
    await storage.done();
  });
});

describe("DEV_SIGNIN=true", () => {
  test("serve warns at start that anyone can sign in as anyone", async () => {
    const storage = await freshStorage();
    const seed = await testSeed();
    const lines: { level: string; msg: string }[] = [];
    let stop!: (s: string) => void;
    const code = run(
      ["serve"],
      { ...storage.env, PORT: "0", HOST: "127.0.0.1", DEV_SIGNIN: "true" },
      {
        seed: async () => seed,
        stopSignal: new Promise<string>((r) => (stop = r)),
        logWrite: (line) => lines.push(JSON.parse(line)),
        onListening: () => stop("test"),
      },
    );
    expect((await code).code).toBe(0);
    expect(lines.find((l) => l.level === "warn" && l.msg.includes("DEV_SIGNIN is on"))).toBeDefined();
    await storage.done();
  });
});

describe("start-up says what is switched off", () => {
  test("serve logs one line naming each capability that is off and its setting", async () => {
    const storage = await freshStorage();
    const seed = await testSeed();
    const lines: { level: string; msg: string; off?: { name: string; turnOn: string }[] }[] = [];
    let stop!: (s: string) => void;
    const code = run(
      ["serve"],
      { ...storage.env, PORT: "0", HOST: "127.0.0.1", GAME_API_KEY: "abc-secret-key", JOB_STATS_SEAL_ENABLED: "false" },
      {
        seed: async () => seed,
        stopSignal: new Promise<string>((r) => (stop = r)),
        logWrite: (line) => lines.push(JSON.parse(line)),
        onListening: () => stop("test"),
      },
    );
    expect((await code).code).toBe(0);
    const off = lines.filter((l) => l.msg.startsWith("switched off: "));
    expect(off).toHaveLength(1);
    const line = off[0]!;
    expect(line.level).toBe("info");
    for (const setting of ["ADMIN_TOKEN", "CHAT_WEBHOOK_URL", "METRICS_ENABLED", "JOB_STATS_SEAL_ENABLED"])
      expect(line.msg).toContain(setting);
    expect(line.msg).toContain("the maintainers' pages");
    // The key is set: profile look-ups are on and not named.
    expect(line.msg).not.toContain("GAME_API_KEY");
    expect(line.off!.map((c) => c.turnOn)).toContain("CHAT_WEBHOOK_URL=<webhook URL>");
    await storage.done();
  });
});

describe("a real process", () => {
  test("stops on SIGTERM with exit code 0, logging each step", async () => {
    const storage = await freshStorage();
    // From source there is no embedded seed: unpack it as the binary would, so no initdb runs.
    if (!postgresUrl) await seedDataDir(storage.dataDir);
    const child = Bun.spawn(["bun", join(import.meta.dir, "../src/main.ts")], {
      env: { ...Bun.env, ...storage.env, PORT: "0", HOST: "127.0.0.1" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const lines: Record<string, unknown>[] = [];
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = child.stdout.getReader();
    let url: string | undefined;
    while (!url) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`exited before listening: ${await new Response(child.stderr).text()}`);
      buffer += decoder.decode(value);
      for (const line of buffer.split("\n").slice(0, -1)) {
        const record = JSON.parse(line);
        lines.push(record);
        if (record.msg === "listening") url = record.url;
      }
      buffer = buffer.slice(buffer.lastIndexOf("\n") + 1);
    }
    expect((await fetch(`${url}/v1/health`)).status).toBe(200);
    child.kill("SIGTERM");
    expect(await child.exited).toBe(0);
    for (let r = await reader.read(); !r.done; r = await reader.read()) buffer += decoder.decode(r.value);
    const rest = buffer
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const messages = [...lines, ...rest].map((l) => l.msg);
    expect(messages).toEqual(
      expect.arrayContaining(["listening", "stopping: finishing in-flight requests", "stopped"]),
    );
    if (!postgresUrl) lockDataDir(storage.dataDir)(); // released
    await storage.done();
  });
});
