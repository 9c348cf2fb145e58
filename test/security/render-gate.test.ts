// Boundary: how many page, card and badge renders one instance runs at once (issue 40). A crowd of
// page requests must not queue its statements in the embedded database (everyone's stall, and the
// memory of every render at once): PAGE_RENDERS_AT_ONCE run, PAGE_RENDER_QUEUE wait their turn in
// order, more are answered 503 server_busy at once, and on SIGTERM the waiting ones are too.
import { describe, expect, test } from "bun:test";
import { workGate } from "../../src/http/work-gate.ts";
import { ApiError } from "../../src/http/errors.ts";
import { testApp } from "../support/app.ts";

/** Work that runs until `finish` is called. */
function held() {
  let finish = () => {};
  let started = false;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    work: async () => {
      started = true;
      await done;
      return "done";
    },
    finish: () => finish(),
    started: () => started,
  };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "ran",
    (e: unknown) =>
      e instanceof ApiError ? `${e.status} ${e.code} retry-after=${e.headers["retry-after"]}` : String(e),
  );

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("the instance's render gate", () => {
  test("runs so many at once, queues so many in order, and refuses the rest at once", async () => {
    const gate = workGate({ atOnce: 2, queue: 2 });
    const works = Array.from({ length: 5 }, held);
    const runs = works.map((w) => codeOf(gate.run(w.work)));
    await tick();
    expect(works.map((w) => w.started())).toEqual([true, true, false, false, false]);
    expect(await runs[4]).toBe("503 server_busy retry-after=5");
    expect(gate.load).toEqual({ running: 2, waiting: 2 });
    // A finished render hands its place to the first waiting, never to a newcomer first.
    works[1]!.finish();
    await tick();
    const late = held();
    const lateRun = gate.run(late.work);
    await tick();
    expect([...works.map((w) => w.started()), late.started()]).toEqual([true, true, true, false, false, false]);
    for (const w of [works[0]!, works[2]!, works[3]!]) w.finish();
    await tick();
    expect(late.started()).toBe(true);
    late.finish();
    expect(await Promise.all([...runs.slice(0, 4), lateRun])).toEqual([...Array(4).fill("ran"), "done"]);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  test("once the service is stopping, refuses the waiting and anything new, and lets the running finish", async () => {
    const stopping = new AbortController();
    const gate = workGate({ atOnce: 1, queue: 10, stopping: stopping.signal });
    const running = held();
    const first = gate.run(running.work);
    const waiting = codeOf(gate.run(held().work));
    await tick();
    stopping.abort();
    expect(await waiting).toBe("503 server_busy retry-after=5");
    expect(await codeOf(gate.run(held().work))).toBe("503 server_busy retry-after=5");
    running.finish();
    expect(await first).toBe("done");
  });

  test("a page past the queue answers the HTML page with 503 and Retry-After, not a stack or a hang", async () => {
    const t = await testApp({
      settings: { devSignin: true, pageRendersAtOnce: 1, pageRenderQueue: 0 },
      now: "2026-06-10T12:00:00Z",
    });
    try {
      const p = await t.postJson("/v1/auth/dev", { uuid: "d".repeat(32), name: "Busy", zone: "UTC" });
      const { token } = (await p.json()) as { token: string };
      const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      const s = await t.request("/v1/stats/settings", {
        method: "PATCH",
        headers: auth,
        body: JSON.stringify({ settingsVersion: 1, findable: true }),
      });
      expect(s.status).toBe(200);
      // Four distinct pages at once: one renders, the others find no place to wait.
      const answers = await Promise.all(
        ["day", "week", "month", "year"].map((period) => t.request(`/u/Busy?period=${period}`)),
      );
      const statuses = answers.map((r) => r.status);
      expect(statuses).toContain(200);
      expect(statuses).toContain(503);
      const refused = answers.find((r) => r.status === 503)!;
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(refused.headers.get("content-type")).toContain("text/html");
    } finally {
      await t.close();
    }
  });
});
