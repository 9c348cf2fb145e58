// How many exports stream at once (issue 40): one per account, and at most EXPORTS_MAX_RUNNING per
// instance. A second export of an account that is still downloading one is answered at once 409
// export_in_progress; one more than the instance streams, 503 server_busy; both with Retry-After.
// A slot is held from the request until its stream ends, fails, is cancelled or the client goes.
//
// In process, not a row: a slot belongs to a stream, and a stream lives and dies with its process
// (a row would outlive a crash and need an expiry). Over several instances an account may run one
// export per instance; each instance still streams at most its own limit (docs/decisions.md).
import { ApiError } from "../http/errors.ts";

export type ExportGate = {
  /**
   * Takes the account's slot, opens its stream with the function that gives the slot back, and
   * answers the stream; refuses when the account or the instance has no slot free.
   */
  open(
    uuid: string,
    signal: AbortSignal,
    stream: (release: () => void) => ReadableStream<Uint8Array> | Promise<ReadableStream<Uint8Array>>,
  ): Promise<ReadableStream<Uint8Array>>;
  /** Exports streaming now (for tests and metrics). */
  running(): number;
};

const RETRY_AFTER_SECONDS = "5";

export function exportGate(maxRunning: number): ExportGate {
  const running = new Set<string>();
  return {
    async open(uuid, signal, stream) {
      if (running.has(uuid))
        throw new ApiError(
          "export_in_progress",
          "an export of this account is still being downloaded; try again once it has finished",
          undefined,
          { "retry-after": RETRY_AFTER_SECONDS },
        );
      if (running.size >= maxRunning)
        throw new ApiError(
          "server_busy",
          "too many exports are being downloaded at once; try again shortly",
          undefined,
          {
            "retry-after": RETRY_AFTER_SECONDS,
          },
        );
      running.add(uuid);
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        running.delete(uuid);
      };
      // A client that goes before the stream is first read never cancels it.
      signal.addEventListener("abort", release, { once: true });
      try {
        return await stream(release);
      } catch (error) {
        release();
        throw error;
      }
    },
    running: () => running.size,
  };
}
