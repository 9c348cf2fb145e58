// Settings: parsed once, every bad value named with what it accepts, secrets never shown.
import { describe, expect, test } from "bun:test";
import { loadConfig, describeConfig, settingsHelp, settings, ConfigError } from "../src/config.ts";

const faultsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).faults;
  }
  throw new Error("expected the settings to be refused");
};

describe("loadConfig", () => {
  test("an empty environment gives the documented defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      databaseUrl: "",
      dataDir: "./data",
      host: "0.0.0.0",
      port: 8080,
      devSignin: false,
      logLevel: "info",
      gameApiKey: "",
    });
    expect(c.baseUrl).toBe("http://localhost:8080");
  });

  test("values are converted to their types", () => {
    const c = loadConfig({
      PORT: "9000",
      DEV_SIGNIN: "true",
      MAX_BODY_BYTES: "65536",
      BASE_URL: "https://stats.example.org/",
    });
    expect(c.port).toBe(9000);
    expect(c.devSignin).toBe(true);
    expect(c.maxBodyBytes).toBe(65536);
    expect(c.baseUrl).toBe("https://stats.example.org");
  });

  test.each([
    [{ PORT: "http" }, 'PORT="http": expected an integer from 0 to 65535'],
    [{ PORT: "70000" }, 'PORT="70000": expected an integer from 0 to 65535'],
    [{ PORT: "80.5" }, "PORT"],
    [{ DEV_SIGNIN: "yes" }, 'DEV_SIGNIN="yes": expected true or false'],
    [{ LOG_LEVEL: "verbose" }, 'LOG_LEVEL="verbose": expected "debug" or "info" or "warn" or "error"'],
    [{ GAME_API_URL: "ftp://example.org" }, 'GAME_API_URL="ftp://example.org": expected an http:// or https:// URL'],
    [{ BASE_URL: "stats.example.org" }, "BASE_URL"],
    [{ MAX_BODY_BYTES: "100" }, 'MAX_BODY_BYTES="100": expected an integer from 8192'],
  ])("%o is refused naming the variable and what it accepts", (env, message) => {
    const faults = faultsOf(env as Record<string, string>);
    expect(faults).toHaveLength(1);
    expect(faults[0]).toStartWith(message);
  });

  test("a list setting is read from commas, each item checked", () => {
    expect(
      loadConfig({ RETENTION_OPTIONS_DAYS: "365, 730", RETENTION_DEFAULT_DAYS: "365" }).retentionOptionsDays,
    ).toEqual([365, 730]);
    expect(faultsOf({ RETENTION_OPTIONS_DAYS: "30,365", RETENTION_DEFAULT_DAYS: "365" })[0]).toBe(
      'RETENTION_OPTIONS_DAYS="30,365": expected a comma-separated list, each an integer from 120 to 36500',
    );
  });

  test("the default retention must be one of the options", () => {
    expect(faultsOf({ RETENTION_OPTIONS_DAYS: "365,730", RETENTION_DEFAULT_DAYS: "400" })).toEqual([
      "RETENTION_DEFAULT_DAYS=400: expected one of RETENTION_OPTIONS_DAYS (365, 730)",
    ]);
  });

  test("every bad setting is reported at once", () => {
    expect(faultsOf({ PORT: "x", DEV_SIGNIN: "1", LOG_LEVEL: "loud" })).toHaveLength(3);
  });

  test("a secret's bad value is never echoed", () => {
    const faults = faultsOf({ DATABASE_URL: "mysql://root:hunter2@db/x", CHAT_WEBHOOK_URL: "discord-hunter2" });
    expect(faults.join("\n")).not.toContain("hunter2");
    expect(faults.join("\n")).toContain("DATABASE_URL=(value hidden)");
  });
});

describe("describeConfig", () => {
  test("masks every secret that is set and shows the rest", () => {
    const c = loadConfig({ DATABASE_URL: "postgres://u:hunter2@db/tally", GAME_API_KEY: "key-hunter2", PORT: "9001" });
    const lines = describeConfig(c).join("\n");
    expect(lines).not.toContain("hunter2");
    expect(lines).toMatch(/GAME_API_KEY\s+\*{8} \(set\)/);
    expect(lines).toMatch(/PORT\s+9001/);
    expect(lines).toMatch(/CHAT_WEBHOOK_URL\s+\(empty\)/);
  });
});

describe("settingsHelp", () => {
  test("documents every setting with its default", () => {
    const help = settingsHelp().join("\n");
    for (const s of Object.values(settings)) {
      expect(help).toContain(s.env);
      expect(help).toContain(s.doc);
    }
    expect(help).toContain("default: 8080");
  });
});
