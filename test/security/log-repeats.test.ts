// A database that cannot write or does not answer fails every request alike; the log says so once,
// then once a minute with how many like it it left out, so a full disk refusing hundreds of
// requests a second does not also fill the log (which may be on that disk). Every request is still
// answered 503. An unhandled error is logged every time: each may be its own fault. (The boundary:
// what a stranger's flood during an outage costs the log is a line a minute per kind, and the
// limiter holds one entry per kind, two in all, whatever the requests carry.)
import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { fakeClock } from "../../src/clock.ts";
import { memoryLog } from "../../src/log.ts";
import { onErrorPlugin, STORAGE_FULL_LOG } from "../../src/http/on-error.ts";
import { REPEAT_WINDOW_MS } from "../../src/http/log-repeats.ts";
import { StorageLow } from "../../src/db/free-space.ts";
import { DatabaseTimeout } from "../../src/db/pool-guard.ts";

function app() {
  const clock = fakeClock();
  const log = memoryLog();
  const server = new Elysia()
    .use(onErrorPlugin(log, () => new Response("page", { status: 500 }), clock.now))
    .get("/v1/full", () => {
      throw new StorageLow(10 * 2 ** 20, 64 * 2 ** 20, "/data/pg");
    })
    .get("/v1/down", () => {
      throw new DatabaseTimeout("acquire", 5000);
    })
    .get("/v1/bug", () => {
      throw new Error("a fault of our own");
    });
  const get = async (path: string) => (await server.handle(new Request(`http://tally.test${path}`))).status;
  const said = (msg: string) => log.lines.filter((l) => l.msg === msg);
  return { clock, get, said };
}

describe("repeated database errors in the log", () => {
  test("a full disk: the first refusal is logged, the rest of the minute counted, then one line with the count", async () => {
    const { clock, get, said } = app();
    for (let i = 0; i < 200; i++) expect(await get("/v1/full")).toBe(503);
    expect(said(STORAGE_FULL_LOG)).toHaveLength(1);
    expect(said(STORAGE_FULL_LOG)[0]!.leftOut).toBeUndefined();

    clock.advance(REPEAT_WINDOW_MS - 1);
    expect(await get("/v1/full")).toBe(503);
    expect(said(STORAGE_FULL_LOG)).toHaveLength(1);

    clock.advance(1);
    expect(await get("/v1/full")).toBe(503);
    const lines = said(STORAGE_FULL_LOG);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.leftOut).toBe(200);
    expect(lines[1]!.sinceMs).toBe(REPEAT_WINDOW_MS);

    // Once the disk has room again (no refusal for a while), the next one is logged at once, plainly.
    clock.advance(10 * REPEAT_WINDOW_MS);
    expect(await get("/v1/full")).toBe(503);
    expect(said(STORAGE_FULL_LOG)).toHaveLength(3);
    expect(said(STORAGE_FULL_LOG)[2]!.leftOut).toBeUndefined();
  });

  test("a clock stepped back does not silence the log until it catches up", async () => {
    const { clock, get, said } = app();
    expect(await get("/v1/full")).toBe(503);
    clock.advance(-60 * REPEAT_WINDOW_MS);
    expect(await get("/v1/full")).toBe(503);
    expect(said(STORAGE_FULL_LOG)).toHaveLength(2);
  });

  test("a database that does not answer is counted apart from a full disk", async () => {
    const { get, said } = app();
    for (let i = 0; i < 50; i++) {
      expect(await get("/v1/down")).toBe(503);
      expect(await get("/v1/full")).toBe(503);
    }
    expect(said("database unavailable")).toHaveLength(1);
    expect(said(STORAGE_FULL_LOG)).toHaveLength(1);
  });

  test("an unhandled error is logged every time", async () => {
    const { get, said } = app();
    for (let i = 0; i < 5; i++) expect(await get("/v1/bug")).toBe(500);
    expect(said("unhandled error")).toHaveLength(5);
  });
});
