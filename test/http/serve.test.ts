// Shutdown: on stop the server takes no new connections, lets in-flight requests finish within the
// grace period, and cuts off what is still running after it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { testApp, type TestApp } from "../support/app.ts";
import { listen } from "../../src/http/serve.ts";
import type { App } from "../../src/app.ts";

let t: TestApp;
beforeAll(async () => (t = await testApp()));
afterAll(() => t.close());

/** An app with a route that answers only when the test releases it. */
function appWithGate() {
  let release!: () => void;
  let entered!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const inside = new Promise<void>((r) => (entered = r));
  const app = new Elysia().get("/slow", async () => {
    entered();
    await gate;
    return "finished";
  });
  return { app: app as unknown as App, release, inside };
}

describe("listen and stop", () => {
  test("an in-flight request finishes; new connections are refused after stop", async () => {
    const { app, release, inside } = appWithGate();
    const server = listen(app, { host: "127.0.0.1", port: 0, graceMs: 10_000, log: t.log });
    const pending = fetch(`${server.url}/slow`);
    await inside;
    const stopped = server.stop("SIGTERM");
    release();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("finished");
    await stopped;
    await expect(fetch(`${server.url}/slow`)).rejects.toThrow();
  });

  test("a request still running after the grace period is cut off and stop returns", async () => {
    const { app, inside } = appWithGate();
    const server = listen(app, { host: "127.0.0.1", port: 0, graceMs: 50, log: t.log });
    const pending = fetch(`${server.url}/slow`).then(
      () => "answered",
      () => "cut off",
    );
    await inside;
    await server.stop("SIGTERM");
    expect(await pending).toBe("cut off");
    expect(t.log.lines.some((l) => l.msg === "grace period over: closing the remaining connections")).toBe(true);
  });
});
