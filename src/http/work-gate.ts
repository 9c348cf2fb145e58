// A gate for costly work shared by every request (issue 40): at most `atOnce` run at a time, at
// most `queue` more wait their turn in order, and past that a request is answered 503 server_busy
// at once. On the embedded database, whose statements all run on this thread, this is what keeps a
// crowd of page requests from queuing hundreds of statements (and their memory) in the database
// itself; once the service is stopping, waiting work is refused (503) rather than started, so a
// SIGTERM under such a crowd ends within the grace.
import { ApiError } from "./errors.ts";

export type WorkGate = {
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Work running and waiting now. */
  readonly load: { running: number; waiting: number };
};

const busy = (why: string) =>
  new ApiError("server_busy", `the service is ${why}; try again shortly`, undefined, { "retry-after": "5" });

export function workGate(opts: { atOnce: number; queue: number; stopping?: AbortSignal }): WorkGate {
  let running = 0;
  const waiting: { start: () => void; refuse: (e: ApiError) => void }[] = [];
  opts.stopping?.addEventListener("abort", () => {
    for (const w of waiting.splice(0)) w.refuse(busy("stopping"));
  });
  /** Hands the finished work's place to the first waiting, else frees it. */
  const release = () => {
    const w = waiting.shift();
    if (w) w.start();
    else running--;
  };
  return {
    async run(work) {
      if (opts.stopping?.aborted) throw busy("stopping");
      if (opts.atOnce <= 0 || running < opts.atOnce) running++;
      else if (waiting.length >= opts.queue) throw busy("busy");
      else await new Promise<void>((start, refuse) => waiting.push({ start, refuse }));
      try {
        return await work();
      } finally {
        release();
      }
    },
    get load() {
      return { running, waiting: waiting.length };
    },
  };
}
