// What an upstream call can end in besides an answer: it was down, slow, throttling us, or
// answered nonsense. Each client maps these to our own error codes; the message never carries a secret.
export class UpstreamError extends Error {
  override name = "UpstreamError";
  constructor(
    readonly upstream: string,
    readonly reason: "timeout" | "network" | "status" | "malformed" | "throttled",
    message: string,
    readonly status?: number,
    /** For "throttled": how long the upstream asked us to wait, when it said so (Retry-After). */
    readonly waitMs?: number,
  ) {
    super(message);
  }
}

/** fetch with the upstream timeout; network faults and timeouts become UpstreamError. */
export async function callUpstream(
  fetcher: typeof fetch,
  upstream: string,
  url: string,
  timeoutMs: number,
  init: RequestInit = {},
): Promise<Response> {
  try {
    // A caller's own signal (the service stopping) ends the call early too.
    const timeout = AbortSignal.timeout(timeoutMs);
    return await fetcher(url, {
      ...init,
      signal: init.signal ? AbortSignal.any([timeout, init.signal]) : timeout,
      redirect: "manual",
    });
  } catch (e) {
    const timedOut = (e as Error).name === "TimeoutError" || (e as Error).name === "AbortError";
    throw new UpstreamError(
      upstream,
      timedOut ? "timeout" : "network",
      timedOut ? `${upstream} did not answer within ${timeoutMs} ms` : `${upstream} could not be reached`,
    );
  }
}
