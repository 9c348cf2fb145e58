// The one call ladder of the upstream clients. A call runs under the upstream timeout (body
// included) and follows no redirect; its answer is sorted once, here:
//   200                       the answer (its body read by the caller, under a byte cap)
//   a status in `absent`      null: no such thing (a name nobody holds, a texture nobody has)
//   429                       UpstreamError "throttled" (Retry-After kept when the upstream sent it)
//   403, or an HTML body      "throttled" too, for services behind a gateway (`gatewayThrottles`):
//                             Mojang's CDN and gateway refuse a caller over its limit with an HTML
//                             403, not a 429 (crafatar/crafatar#260, AuthMe/AuthMeReloaded#3060)
//   any other status          UpstreamError "status"
//   a body that is not JSON   UpstreamError "malformed"; over the cap: "malformed" before it is held
// Each client keeps only what is its own: its URL, which statuses mean "absent", and what a body
// must hold. Base URLs arrive without a trailing slash (config trims them once).
import { callUpstream, UpstreamError } from "./upstream-error.ts";
import { readCapped } from "./read-capped.ts";

export type CallSpec = {
  fetch: typeof fetch;
  /** The upstream's name in messages and logs (never its URL: a URL can carry a secret). */
  upstream: string;
  url: string;
  timeoutMs: number;
  init?: RequestInit;
  /** Statuses that mean "no such thing": the call answers null. */
  absent?: readonly number[];
  /** A 403, or an HTML body with any status, is the upstream's gateway throttling us. */
  gatewayThrottles?: boolean;
};

/** Cap of the small JSON answers (a name, a profile with its textures: about 1 KB in life). */
export const SMALL_JSON_MAX_BYTES = 64 * 1024;

const isHtmlType = (res: Response) => /\btext\/html\b/i.test(res.headers.get("content-type") ?? "");

/** Retry-After in seconds (the only form these upstreams send), as milliseconds. */
function retryAfterMs(res: Response): number | undefined {
  const v = res.headers.get("retry-after")?.trim();
  return v && /^\d{1,7}$/.test(v) ? Number(v) * 1000 : undefined;
}

function throttled(spec: CallSpec, res: Response, why: string): UpstreamError {
  return new UpstreamError(
    spec.upstream,
    "throttled",
    `${spec.upstream} is throttling us (${why})`,
    res.status,
    retryAfterMs(res),
  );
}

/** Fetches and sorts the answer: the 200 Response, null for an absent status, else throws. */
export async function callFor(spec: CallSpec): Promise<Response | null> {
  const res = await callUpstream(spec.fetch, spec.upstream, spec.url, spec.timeoutMs, spec.init);
  if (spec.absent?.includes(res.status)) {
    await res.body?.cancel();
    return null;
  }
  if (res.status === 200 && !(spec.gatewayThrottles && isHtmlType(res))) return res;
  await res.body?.cancel();
  if (res.status === 429) throw throttled(spec, res, "429");
  if (spec.gatewayThrottles && res.status === 403) throw throttled(spec, res, "403");
  if (spec.gatewayThrottles && isHtmlType(res)) throw throttled(spec, res, `${res.status} with an HTML page`);
  throw new UpstreamError(spec.upstream, "status", `${spec.upstream} answered ${res.status}`, res.status);
}

/** The body's bytes under the cap; a timeout while reading is the upstream's timeout. */
export async function bodyBytes(
  res: Response,
  upstream: string,
  maxBytes: number,
  timeoutMs: number,
): Promise<Uint8Array> {
  try {
    return await readCapped(res, upstream, maxBytes);
  } catch (e) {
    if (e instanceof UpstreamError) throw e;
    const name = (e as Error).name;
    if (name === "TimeoutError" || name === "AbortError") {
      throw new UpstreamError(upstream, "timeout", `${upstream} did not finish its answer within ${timeoutMs} ms`);
    }
    throw new UpstreamError(upstream, "network", `${upstream} broke off its answer`);
  }
}

const looksHtml = (bytes: Uint8Array) => {
  let i = 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return bytes[i] === 0x3c; // "<": no JSON value and no PNG starts with it
};

/** Parses a JSON body read under the cap; an HTML page where JSON was due is throttling when the spec says so. */
export async function readJson(
  res: Response,
  spec: Pick<CallSpec, "upstream" | "timeoutMs" | "gatewayThrottles">,
  maxBytes: number,
): Promise<unknown> {
  const bytes = await bodyBytes(res, spec.upstream, maxBytes, spec.timeoutMs);
  if (spec.gatewayThrottles && looksHtml(bytes))
    throw throttled(spec as CallSpec, res, `${res.status} with an HTML page`);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new UpstreamError(
      spec.upstream,
      "malformed",
      `${spec.upstream} answered ${res.status} with a body that is not JSON`,
    );
  }
}

/** The whole ladder for a JSON answer: { body } parsed, or null for an absent status. */
export async function getJson(spec: CallSpec, maxBytes = SMALL_JSON_MAX_BYTES): Promise<{ body: unknown } | null> {
  const res = await callFor({
    ...spec,
    init: { ...spec.init, headers: { accept: "application/json", ...spec.init?.headers } },
  });
  return res && { body: await readJson(res, spec, maxBytes) };
}

/** The whole ladder for bytes (an image): the body under the cap, or null for an absent status. */
export async function getBytes(spec: CallSpec, maxBytes: number): Promise<Uint8Array | null> {
  const res = await callFor(spec);
  if (!res) return null;
  const bytes = await bodyBytes(res, spec.upstream, maxBytes, spec.timeoutMs);
  if (spec.gatewayThrottles && looksHtml(bytes)) throw throttled(spec, res, "200 with an HTML page");
  return bytes;
}
