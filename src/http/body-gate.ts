// A bound on request bodies decoding at once: each body reserves its route's decoded cap out of a
// budget of bytes; one that does not fit waits its turn in a queue of bounded length, and one that
// finds the queue full is told 503 server_busy with Retry-After. Memory spent decoding bodies is
// thereby bounded by the budget, whatever the number of connections.
import { ApiError } from "./errors.ts";

export type BodyGate = {
  /** Waits for room for `bytes`; resolves to the release function (call it exactly once). */
  acquire(bytes: number): Promise<() => void>;
  /** Bytes reserved now and bodies waiting now (for tests and metrics). */
  load(): { reserved: number; waiting: number };
};

export function bodyGate(budgetBytes: number, maxWaiting: number): BodyGate {
  let reserved = 0;
  const queue: { need: number; go: () => void }[] = [];
  const wake = () => {
    while (queue.length && reserved + queue[0]!.need <= budgetBytes) {
      const next = queue.shift()!;
      reserved += next.need;
      next.go();
    }
  };
  const releaser = (need: number) => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      reserved -= need;
      wake();
    };
  };
  return {
    async acquire(bytes) {
      const need = Math.min(Math.max(bytes, 1), budgetBytes);
      if (queue.length === 0 && reserved + need <= budgetBytes) {
        reserved += need;
        return releaser(need);
      }
      if (queue.length >= maxWaiting) {
        throw new ApiError(
          "server_busy",
          "too many request bodies are being read at once; try again shortly",
          undefined,
          { "retry-after": "1" },
        );
      }
      await new Promise<void>((go) => queue.push({ need, go }));
      return releaser(need);
    },
    load: () => ({ reserved, waiting: queue.length }),
  };
}
