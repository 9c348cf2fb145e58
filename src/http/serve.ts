// Listens until told to stop, then drains: no new connections, in-flight requests finish within
// the grace period, the rest are closed.
import type { Log } from "../log.ts";
import type { App } from "../app.ts";

export type Listening = { url: string; port: number; stop(reason: string): Promise<void> };

export function listen(app: App, opts: { host: string; port: number; graceMs: number; log: Log }): Listening {
  app.listen({ hostname: opts.host, port: opts.port });
  const server = app.server!;
  const shown = opts.host === "0.0.0.0" || opts.host === "::" ? "localhost" : opts.host;
  let stopping: Promise<void> | undefined;
  return {
    url: `http://${shown}:${server.port}`,
    port: server.port!,
    stop(reason) {
      stopping ??= (async () => {
        opts.log.info("stopping: finishing in-flight requests", { reason, graceMs: opts.graceMs });
        let timer: ReturnType<typeof setTimeout> | undefined;
        const drained = await Promise.race([
          server.stop(false).then(() => true),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), opts.graceMs))),
        ]);
        clearTimeout(timer);
        if (!drained) {
          opts.log.warn("grace period over: closing the remaining connections");
          await server.stop(true);
        }
      })();
      return stopping;
    },
  };
}
