// A bound on request bodies being read at once. Each body reserves what it will hold (its declared
// length, then what it inflates to) out of a budget of bytes; one that does not fit waits its turn
// in a queue of bounded length, and one that finds the queue full is told 503 server_busy with
// Retry-After. Memory spent reading bodies is thereby bounded by the budget, whatever the number of
// connections. Beside the bytes, the gate counts bodies in flight (waiting or being read) per
// client address and per signed-in account, so one client cannot hold the whole budget.
import { ApiError } from "./errors.ts";

/** A body's share of the budget: grown as it inflates, released once when it is done. */
export type Reservation = {
  /**
   * Takes `bytes` more now, or throws 503 server_busy when others hold the room (it never waits:
   * it already holds some, and holders waiting on each other could wait for ever).
   */
  grow(bytes: number): void;
  /** Gives back everything it holds (call it exactly once; later calls do nothing). */
  release(): void;
};

/** Who is sending a body: the client's address subject, and the account when signed in. */
export type Sender = { address: string; account?: string };

export type BodyGate = {
  /** Checks the sender's bodies in flight, then waits for room for `bytes`. */
  acquire(bytes: number, sender: Sender): Promise<Reservation>;
  /** Bytes reserved now and bodies waiting now (for tests and metrics). */
  load(): { reserved: number; waiting: number };
};

export type BodyGateLimits = {
  budgetBytes: number;
  maxWaiting: number;
  /** Bodies one address may have in flight at once; 0: no limit. */
  perAddress: number;
};

const busy = () =>
  new ApiError("server_busy", "too many request bodies are being read at once; try again shortly", undefined, {
    "retry-after": "1",
  });

const tooMany = (message: string) => new ApiError("too_many_bodies", message, undefined, { "retry-after": "1" });

export function bodyGate(limits: BodyGateLimits): BodyGate {
  const { budgetBytes, maxWaiting, perAddress } = limits;
  let reserved = 0;
  const queue: { need: number; go: () => void }[] = [];
  // Bodies in flight per address and the accounts with one in flight: entries exist only while a
  // body is, so these hold at most (bodies reading + bodies waiting) entries.
  const byAddress = new Map<string, number>();
  const accounts = new Set<string>();
  const wake = () => {
    while (queue.length && reserved + queue[0]!.need <= budgetBytes) {
      const next = queue.shift()!;
      reserved += next.need;
      next.go();
    }
  };
  const enter = (sender: Sender) => {
    if (sender.account !== undefined && accounts.has(sender.account))
      throw tooMany("this account is already sending a body; send the next one when it is answered");
    const n = byAddress.get(sender.address) ?? 0;
    if (perAddress > 0 && n >= perAddress)
      throw tooMany(`this address is already sending ${n} bodies; send the next one when one is answered`);
    byAddress.set(sender.address, n + 1);
    if (sender.account !== undefined) accounts.add(sender.account);
  };
  const leave = (sender: Sender) => {
    const n = byAddress.get(sender.address) ?? 1;
    if (n <= 1) byAddress.delete(sender.address);
    else byAddress.set(sender.address, n - 1);
    if (sender.account !== undefined) accounts.delete(sender.account);
  };
  const reservation = (first: number, sender: Sender): Reservation => {
    let held = first;
    let done = false;
    return {
      grow(bytes) {
        if (done) return;
        // Alone, a body may pass the budget, as one larger than the budget is let in alone.
        if (reserved + bytes > budgetBytes && reserved > held) throw busy();
        reserved += bytes;
        held += bytes;
      },
      release() {
        if (done) return;
        done = true;
        reserved -= held;
        leave(sender);
        wake();
      },
    };
  };
  return {
    async acquire(bytes, sender) {
      enter(sender);
      const need = Math.min(Math.max(bytes, 1), budgetBytes);
      if (queue.length === 0 && reserved + need <= budgetBytes) {
        reserved += need;
        return reservation(need, sender);
      }
      if (queue.length >= maxWaiting) {
        leave(sender);
        throw busy();
      }
      await new Promise<void>((go) => queue.push({ need, go }));
      return reservation(need, sender);
    },
    load: () => ({ reserved, waiting: queue.length }),
  };
}
