// The maintainers' chat: a Discord webhook posting to a forum channel.
//   POST  {webhook}?wait=true { thread_name, content, embeds, allowed_mentions } -> a new thread; the
//         answer is the message, its channel_id the thread's id
//   PATCH {webhook}/messages/{id}?thread_id={thread} -> edits that message
//   POST  {webhook}?wait=true&thread_id={thread} -> a reply in the thread
// Every call goes to a versioned path (/api/v10/webhooks/...) whatever URL was configured: the URL a
// user copies has none, and there Discord's default version (v6) gives a 429's retry_after in
// milliseconds. On v10 a 429 carries retry_after (seconds, a float) and `global` in its body,
// Retry-After (and, when global, X-RateLimit-Global) in its headers; every answer carries
// X-RateLimit-Remaining and X-RateLimit-Reset-After. Refusals the outbox acts on have their own
// errors: an archived thread (400 50083), a locked one (160005), a deleted webhook (404 10015), a
// forum that requires tags (400 40067). The webhook URL is a secret: it never appears in an error,
// a log line or an answer of ours.
// A post (a new thread, a reply) whose answer does not come (a timeout, a connection that broke, a
// body cut short) may be in the chat or not: it fails with ChatOutcomeUnknown, and the outbox must
// not send it again at once. Discord's Execute Webhook takes no idempotency key (no nonce: that is
// only Create Message's, for bots), and only a message id can be looked up, so nothing can ask the
// chat whether the post arrived. A reply and an edit need no body: their 2xx status is the answer.
import { callUpstream, UpstreamError } from "./upstream-error.ts";
import { bodyBytes, readJson, SMALL_JSON_MAX_BYTES } from "./call.ts";

export type ChatDeps = { fetch: typeof fetch; webhookUrl: string; timeoutMs: number; signal?: AbortSignal };

export type Embed = { title?: string; description?: string; color?: number; footer?: { text: string } };
export type ChatMessage = {
  content: string;
  embeds?: Embed[];
  thread_name?: string;
  /** Forum tags of a new thread (a forum can require one). */
  applied_tags?: string[];
  allowed_mentions: { parse: [] };
};

/** What the rate-limit headers said after a call: how many calls are left and when they come back. */
export type RateState = { remaining?: number; resetAfterMs?: number };

/** The chat asked us to wait (429): nothing should be sent before retryAfterMs. */
export class ChatRateLimited extends UpstreamError {
  constructor(
    readonly retryAfterMs: number,
    readonly global: boolean,
  ) {
    super("chat", "status", `chat rate limited for ${retryAfterMs} ms${global ? " (global)" : ""}`, 429);
  }
}

/** The thread or its starter message no longer exists (a maintainer deleted it). */
export class ChatThreadGone extends UpstreamError {
  constructor(status: number) {
    super("chat", "status", "the chat thread or its message no longer exists", status);
  }
}

/** The thread is archived (a post closed by a maintainer, or idle): an edit is refused, a post unarchives it. */
export class ChatThreadArchived extends UpstreamError {
  constructor(status: number) {
    super("chat", "status", "the chat thread is archived", status);
  }
}

/** The thread is locked: only a moderator can open it again; nothing of ours gets in. */
export class ChatThreadLocked extends UpstreamError {
  constructor(status: number) {
    super("chat", "status", "the chat thread is locked", status);
  }
}

/** The webhook itself was deleted (404 Unknown Webhook): nothing can be posted until it is replaced. */
export class ChatWebhookGone extends UpstreamError {
  constructor(status: number) {
    super("chat", "status", "the chat webhook no longer exists (Unknown Webhook)", status);
  }
}

/** The forum requires a tag on new posts (40067). */
export class ChatTagRequired extends UpstreamError {
  constructor(status: number) {
    super("chat", "status", "the forum requires a tag on new posts", status);
  }
}

/** A post was sent and its answer never came: it may be in the chat or not. */
export class ChatOutcomeUnknown extends UpstreamError {
  constructor(
    inner: UpstreamError,
    /** The chat answered 2xx (it holds the post) but the body with the ids did not come whole. */
    readonly accepted: boolean,
  ) {
    super(inner.upstream, inner.reason, inner.message, inner.status);
  }
}

const UPSTREAM = "chat";
const UNKNOWN_CHANNEL = "10003";
const UNKNOWN_MESSAGE = "10008";
const UNKNOWN_WEBHOOK = "10015";
const TAG_REQUIRED = "40067";
const THREAD_ARCHIVED = "50083";
const THREAD_LOCKED = "160005";
export const API_VERSION = 10;

/** The webhook's path on the versioned API: /api/webhooks/.. and /api/v6/webhooks/.. become /api/v10/webhooks/... */
export function versionedWebhookUrl(webhookUrl: string): URL {
  const u = new URL(webhookUrl);
  u.pathname = u.pathname.replace(/^\/api(?:\/v\d+)?\/webhooks\//, `/api/v${API_VERSION}/webhooks/`);
  return u;
}

function endpoint(webhookUrl: string, path: string, query: Record<string, string>): string {
  const u = versionedWebhookUrl(webhookUrl);
  u.pathname += path; // config trims CHAT_WEBHOOK_URL's trailing slashes
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
  return u.toString();
}

function rateState(res: Response): RateState {
  const remaining = Number(res.headers.get("x-ratelimit-remaining") ?? NaN);
  const resetAfter = Number(res.headers.get("x-ratelimit-reset-after") ?? NaN);
  return {
    ...(Number.isFinite(remaining) ? { remaining } : {}),
    ...(Number.isFinite(resetAfter) ? { resetAfterMs: Math.ceil(resetAfter * 1000) } : {}),
  };
}

/** Errors that show the request never left (nothing can be in the chat): the others may have reached it. */
const NOT_SENT = new Set(["ECONNREFUSED", "ConnectionRefused", "ENOTFOUND", "EAI_AGAIN", "FailedToOpenSocket"]);

async function send(
  deps: ChatDeps,
  method: "POST" | "PATCH",
  url: string,
  message: Partial<ChatMessage>,
  opts: { needBody: boolean },
): Promise<{ body: unknown; rate: RateState }> {
  let notSent = false;
  const fetcher = ((input: string, init?: RequestInit) =>
    deps.fetch(input, init).catch((e: unknown) => {
      notSent = NOT_SENT.has(String((e as { code?: unknown }).code));
      throw e;
    })) as typeof fetch;
  let res: Response;
  try {
    // One signal for the whole answer, headers and body: a body trickled past it is cut there.
    res = await callUpstream(fetcher, UPSTREAM, url, deps.timeoutMs, {
      method,
      signal: deps.signal,
      headers: { "content-type": "application/json", "user-agent": "tally (bug intake)" },
      body: JSON.stringify(message),
    });
  } catch (e) {
    if (method === "POST" && !notSent && e instanceof UpstreamError) throw new ChatOutcomeUnknown(e, false);
    throw e;
  }
  if (res.status === 429) {
    let body: { retry_after?: unknown; global?: unknown } = {};
    try {
      body = (await readJson(
        res,
        { upstream: UPSTREAM, timeoutMs: deps.timeoutMs },
        SMALL_JSON_MAX_BYTES,
      )) as typeof body;
    } catch {
      // the header still says how long
    }
    const seconds =
      typeof body.retry_after === "number" ? body.retry_after : Number(res.headers.get("retry-after") ?? 1);
    const global = body.global === true || res.headers.get("x-ratelimit-global") === "true";
    throw new ChatRateLimited(Math.max(1, Math.ceil((Number.isFinite(seconds) ? seconds : 1) * 1000)), global);
  }
  if (res.status < 200 || res.status >= 300) {
    // Discord's error body ({ code, message }) says what was wrong; it holds no secret of ours.
    const bytes = await bodyBytes(res, UPSTREAM, 2048, deps.timeoutMs).catch(() => new Uint8Array());
    const detail = new TextDecoder().decode(bytes).slice(0, 200).replace(/\s+/g, " ");
    const code = /"code":\s*(\d+)/.exec(detail)?.[1];
    if (res.status === 404 && code === UNKNOWN_WEBHOOK) throw new ChatWebhookGone(res.status);
    if (res.status === 404 && (code === UNKNOWN_CHANNEL || code === UNKNOWN_MESSAGE))
      throw new ChatThreadGone(res.status);
    if (code === THREAD_ARCHIVED) throw new ChatThreadArchived(res.status);
    if (code === THREAD_LOCKED) throw new ChatThreadLocked(res.status);
    if (code === TAG_REQUIRED) throw new ChatTagRequired(res.status);
    throw new UpstreamError(
      UPSTREAM,
      "status",
      `chat answered ${res.status}${detail ? `: ${detail}` : ""}`,
      res.status,
    );
  }
  if (res.status === 204 || !opts.needBody) {
    // The status says it all (a reply is posted, an edit made): a slow body delays nothing.
    await res.body?.cancel().catch(() => {});
    return { body: undefined, rate: rateState(res) };
  }
  // A body that is not JSON is an UpstreamError "malformed"; one over the cap, "too_large".
  try {
    return {
      body: await readJson(res, { upstream: UPSTREAM, timeoutMs: deps.timeoutMs }, SMALL_JSON_MAX_BYTES),
      rate: rateState(res),
    };
  } catch (e) {
    // Accepted (2xx), but the ids the caller needs did not come.
    if (e instanceof UpstreamError) throw new ChatOutcomeUnknown(e, true);
    throw e;
  }
}

/** Opens a forum thread with its starter message; answers the thread's and the message's ids. */
export async function createThread(deps: ChatDeps, message: ChatMessage & { thread_name: string }) {
  const { body, rate } = await send(deps, "POST", endpoint(deps.webhookUrl, "", { wait: "true" }), message, {
    needBody: true,
  });
  const m = body as { id?: unknown; channel_id?: unknown } | undefined;
  if (typeof m?.id !== "string" || typeof m.channel_id !== "string") {
    const e = new UpstreamError(
      UPSTREAM,
      "malformed",
      "chat created a message but answered without its id and channel_id",
    );
    throw new ChatOutcomeUnknown(e, true);
  }
  return { threadId: m.channel_id, messageId: m.id, rate };
}

export async function editMessage(deps: ChatDeps, threadId: string, messageId: string, patch: Partial<ChatMessage>) {
  const { rate } = await send(
    deps,
    "PATCH",
    endpoint(deps.webhookUrl, `/messages/${encodeURIComponent(messageId)}`, { thread_id: threadId }),
    patch,
    { needBody: false },
  );
  return { rate };
}

export async function postReply(deps: ChatDeps, threadId: string, message: ChatMessage) {
  const { rate } = await send(
    deps,
    "POST",
    endpoint(deps.webhookUrl, "", { wait: "true", thread_id: threadId }),
    message,
    { needBody: false },
  );
  return { rate };
}
