// Listens until told to stop, then drains: no new connections, in-flight requests finish within
// the grace period, the rest are closed.
import type { Log } from "../log.ts";
import type { Server } from "bun";

/** What listen needs of the app (createApp's Elysia instance; http/ imports nothing above it). */
type Listenable = { listen(options: { hostname: string; port: number }): unknown; server: Server<unknown> | null };

export type Listening = { url: string; port: number; stop(reason: string): Promise<void> };

export function listen(
  app: Listenable,
  opts: { host: string; port: number; graceMs: number; log: Log; maxBodyBytes?: number },
): Listening {
  // Bun itself refuses a body longer than maxBodyBytes (an empty 413) before any handler sees it.
  app.listen({
    hostname: opts.host,
    port: opts.port,
    ...(opts.maxBodyBytes ? { maxRequestBodySize: opts.maxBodyBytes } : {}),
  });
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
