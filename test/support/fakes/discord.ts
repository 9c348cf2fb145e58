// A fake of Discord's webhook API for a forum channel, answering like the real one:
//   POST  /api/v10/webhooks/<id>/<token>?wait=true with thread_name -> a new thread; answers the
//         message object ({ id, channel_id = the thread's id, content, embeds, ... })
//   POST  /api/v10/webhooks/<id>/<token>?wait=true&thread_id=<thread> -> a message in that thread
//         (an archived thread is unarchived by it; a locked one refuses: 160005)
//   PATCH /api/v10/webhooks/<id>/<token>/messages/<message_id>?thread_id=<thread> -> edits it (an
//         archived thread refuses: 400 50083 "Thread is archived")
// The same routes answer without the version (`/api/webhooks/...`, the URL a user copies): that is
// Discord's default version (v6), whose 429 gives retry_after in milliseconds, not seconds.
// Without wait=true a post answers 204. A forum post without thread_name or thread_id, or a body
// over Discord's limits, answers 400 { code, message, errors }; a wrong token 401, an unknown
// message or thread 404; a deleted webhook 404 10015; a forum requiring tags refuses a new post
// without `applied_tags` 400 40067. Error bodies and 429s replay `test/support/recorded/discord/`
// (their sources are in its README). Every answer carries X-RateLimit-Limit/-Remaining/
// -Reset-After/-Bucket. Failure modes, taken one per call from `state.failures` (else
// `state.failure`): "rateLimited", "globalRateLimited", "error500", "error502", "hang" (never
// answers, does nothing), and two where Discord did the work but its answer is slow: "late" (the
// whole answer comes `state.lateMs` later) and "trickle" (the status and headers at once, then the
// body `state.trickle.bytes` at a time every `state.trickle.everyMs`).
import { fakeUpstream, json, type Call } from "../upstream.ts";
import archived from "../recorded/discord/thread-archived.json";
import locked from "../recorded/discord/thread-locked.json";
import unknownWebhook from "../recorded/discord/unknown-webhook.json";
import tagRequired from "../recorded/discord/tag-required.json";
import limitedV10 from "../recorded/discord/rate-limited-v10.json";
import limitedGlobal from "../recorded/discord/rate-limited-global.json";
import limitedUnversioned from "../recorded/discord/rate-limited-unversioned.json";

export type DiscordFailure =
  | "none"
  | "rateLimited"
  | "globalRateLimited"
  | "error500"
  | "error502"
  | "hang"
  | "late"
  | "trickle";
export type DiscordMessage = { id: string; channel_id: string; content: string; embeds: unknown[] };
export type Received = { method: string; path: string; query: Record<string, string>; body: Record<string, unknown> };
export type FakeThread = {
  name: string;
  messages: DiscordMessage[];
  archived: boolean;
  locked: boolean;
  appliedTags: string[];
};

type Recorded = { status: number; headers: Record<string, string>; body: Record<string, unknown> };
const replay = (r: Recorded, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  json({ ...r.body, ...body }, r.status, { ...r.headers, ...headers });

const WEBHOOK_ID = "1311122233344455566";
const TOKEN = "fake-webhook-token-Zx9Qm2";

export function fakeDiscord() {
  let nextId = 1_400_000_000_000_000_000n;
  const snowflake = () => String(nextId++);
  const threads = new Map<string, FakeThread>();
  const received: Received[] = [];
  const state = {
    failure: "none" as DiscordFailure,
    failures: [] as DiscordFailure[],
    /** Seconds, as Discord says it on a versioned path (milliseconds on the unversioned one). */
    retryAfter: 1.5,
    limit: 50,
    used: 0,
    hung: 0,
    /** The webhook was deleted in Discord. */
    deleted: false,
    /** The forum's tags; with requireTag a new post must carry one of them. */
    tags: ["1400000000000000901", "1400000000000000902"],
    requireTag: false,
    /** "late": how long the answer is held after the work is done. */
    lateMs: 1000,
    /** "trickle": how the body comes. */
    trickle: { bytes: 16, everyMs: 20 },
    /** Answers "late" or "trickle" still on their way. */
    slow: 0,
  };

  const rateHeaders = (remaining: number) => ({
    "x-ratelimit-limit": String(state.limit),
    "x-ratelimit-remaining": String(remaining),
    "x-ratelimit-reset": String((Date.now() + 2000) / 1000),
    "x-ratelimit-reset-after": "2.000",
    "x-ratelimit-bucket": "f3ad8b1c2e9d0a7b6c5d4e3f2a1b0c9d",
  });

  /** The failure this call meets, or a Response for it. */
  async function failureResponse(mode: DiscordFailure, versioned: boolean): Promise<Response | undefined> {
    const seconds = state.retryAfter;
    switch (mode) {
      case "rateLimited":
        if (!versioned) {
          return replay(
            limitedUnversioned as Recorded,
            { retry_after: Math.round(seconds * 1000) },
            {
              "retry-after": String(Math.ceil(seconds)),
              "x-ratelimit-reset-after": seconds.toFixed(3),
            },
          );
        }
        return replay(
          limitedV10 as Recorded,
          { retry_after: seconds },
          {
            "retry-after": String(Math.ceil(seconds)),
            "x-ratelimit-limit": String(state.limit),
            "x-ratelimit-reset-after": seconds.toFixed(3),
            "x-ratelimit-reset": String((Date.now() + seconds * 1000) / 1000),
          },
        );
      case "globalRateLimited":
        return replay(
          limitedGlobal as Recorded,
          { retry_after: versioned ? seconds : Math.round(seconds * 1000) },
          { "retry-after": String(Math.ceil(seconds)) },
        );
      case "error500":
        return json({ message: "500: Internal Server Error", code: 0 }, 500);
      case "error502":
        return new Response("<html><body>502 Bad Gateway</body></html>", {
          status: 502,
          headers: { "content-type": "text/html" },
        });
      case "hang":
        state.hung++;
        await new Promise(() => {}); // never answers
    }
    return undefined;
  }

  /** The answer of work already done, as the mode delivers it. */
  async function deliver(mode: DiscordFailure, res: Response): Promise<Response> {
    if (mode === "late") {
      state.slow++;
      await Bun.sleep(state.lateMs);
      state.slow--;
      return res;
    }
    if (mode !== "trickle") return res;
    const body = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    let i = 0;
    state.slow++;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (i > 0) await Bun.sleep(state.trickle.everyMs); // the status, headers and first bytes at once
        controller.enqueue(body.slice(i, i + state.trickle.bytes));
        i += state.trickle.bytes;
        if (i >= body.byteLength) {
          state.slow--;
          controller.close();
        }
      },
      cancel() {
        state.slow--;
      },
    });
    return new Response(stream, { status: res.status, headers });
  }

  const ok = (body: unknown, status = 200) => {
    state.used++;
    const remaining = state.limit - 1 - ((state.used - 1) % state.limit);
    return status === 204
      ? new Response(null, { status, headers: rateHeaders(remaining) })
      : json(body, status, rateHeaders(remaining));
  };

  function tooLong(body: Record<string, unknown>): Record<string, unknown> | undefined {
    const errors: Record<string, unknown> = {};
    const long = (max: number) => ({
      _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${max} or fewer in length.` }],
    });
    if (typeof body.content === "string" && [...body.content].length > 2000) errors.content = long(2000);
    if (typeof body.thread_name === "string" && [...body.thread_name].length > 100) errors.thread_name = long(100);
    const embeds = (body.embeds ?? []) as { title?: string; description?: string; footer?: { text?: string } }[];
    let total = 0;
    embeds.forEach((e, i) => {
      if ((e.description?.length ?? 0) > 4096) errors[`embeds.${i}.description`] = long(4096);
      if ((e.title?.length ?? 0) > 256) errors[`embeds.${i}.title`] = long(256);
      total += (e.title?.length ?? 0) + (e.description?.length ?? 0) + (e.footer?.text?.length ?? 0);
    });
    if (total > 6000)
      errors.embeds = {
        _errors: [{ code: "MAX_EMBED_SIZE_EXCEEDED", message: "Embed size exceeds maximum size of 6000" }],
      };
    return Object.keys(errors).length ? { code: 50035, message: "Invalid Form Body", errors } : undefined;
  }

  /** The path after /api or /api/v10: ["webhooks", id, token, ...]. */
  function parts(path: string): { versioned: boolean; rest: string[] } {
    const segments = path.split("/").slice(2);
    const versioned = /^v\d+$/.test(segments[0] ?? "");
    return { versioned, rest: versioned ? segments.slice(1) : segments };
  }

  /** Checks the webhook itself; answers its refusal, or undefined when the call may go on. */
  function webhookRefusal(call: Call): Response | undefined {
    const [, id, token] = parts(call.path).rest;
    if (id !== WEBHOOK_ID) return replay(unknownWebhook as Recorded);
    if (token !== TOKEN) return json({ message: "Invalid Webhook Token", code: 50027 }, 401);
    if (state.deleted) return replay(unknownWebhook as Recorded);
    return undefined;
  }

  async function post(_req: Request, call: Call): Promise<Response> {
    const refused = webhookRefusal(call);
    if (refused) return refused;
    const body = JSON.parse(call.body) as Record<string, unknown>;
    received.push({ method: "POST", path: call.path, query: Object.fromEntries(call.query), body });
    const mode = state.failures.shift() ?? state.failure;
    const failed = await failureResponse(mode, parts(call.path).versioned);
    if (failed) return failed;
    return deliver(mode, posted(call, body));
  }

  function posted(call: Call, body: Record<string, unknown>): Response {
    const invalid = tooLong(body);
    if (invalid) return json(invalid, 400);
    const threadId = call.query.get("thread_id");
    let channel: string;
    if (threadId) {
      const thread = threads.get(threadId);
      if (!thread) return json({ message: "Unknown Channel", code: 10003 }, 404);
      if (thread.archived && thread.locked) return replay(locked as Recorded);
      thread.archived = false; // sending a message unarchives the thread
      channel = threadId;
    } else if (typeof body.thread_name === "string") {
      const tags = Array.isArray(body.applied_tags) ? (body.applied_tags as string[]) : [];
      if (state.requireTag && !tags.some((t) => state.tags.includes(t))) return replay(tagRequired as Recorded);
      channel = snowflake();
      threads.set(channel, { name: body.thread_name, messages: [], archived: false, locked: false, appliedTags: tags });
    } else {
      return json(
        { message: "Webhooks posted to forum channels must have a thread_name or thread_id", code: 220001 },
        400,
      );
    }
    const message: DiscordMessage = {
      id: snowflake(),
      channel_id: channel,
      content: String(body.content ?? ""),
      embeds: (body.embeds as unknown[]) ?? [],
    };
    threads.get(channel)!.messages.push(message);
    if (call.query.get("wait") !== "true") return ok(undefined, 204);
    return ok({
      ...message,
      type: 0,
      webhook_id: WEBHOOK_ID,
      author: { id: WEBHOOK_ID, username: "tally", bot: true },
      attachments: [],
      mentions: [],
      pinned: false,
      tts: false,
      flags: 0,
      timestamp: new Date().toISOString(),
    });
  }

  async function patch(_req: Request, call: Call): Promise<Response> {
    const refused = webhookRefusal(call);
    if (refused) return refused;
    const body = JSON.parse(call.body) as Record<string, unknown>;
    received.push({ method: "PATCH", path: call.path, query: Object.fromEntries(call.query), body });
    const mode = state.failures.shift() ?? state.failure;
    const failed = await failureResponse(mode, parts(call.path).versioned);
    if (failed) return failed;
    return deliver(mode, patched(call, body));
  }

  function patched(call: Call, body: Record<string, unknown>): Response {
    const invalid = tooLong(body);
    if (invalid) return json(invalid, 400);
    const thread = threads.get(call.query.get("thread_id") ?? "");
    const message = thread?.messages.find((m) => m.id === call.path.split("/").at(-1));
    if (!message) return json({ message: "Unknown Message", code: 10008 }, 404);
    if (thread!.archived) return replay(archived as Recorded);
    if (typeof body.content === "string") message.content = body.content;
    if (Array.isArray(body.embeds)) message.embeds = body.embeds;
    return ok({ ...message, type: 0, webhook_id: WEBHOOK_ID, edited_timestamp: new Date().toISOString() });
  }

  const server = fakeUpstream({
    "POST /api/webhooks/:id/:token": post,
    "POST /api/v10/webhooks/:id/:token": post,
    "PATCH /api/webhooks/:id/:token/messages/:message": patch,
    "PATCH /api/v10/webhooks/:id/:token/messages/:message": patch,
  });
  return {
    ...server,
    /** The webhook URL to configure, as a user copies it from Discord (no API version; a secret). */
    webhookUrl: `${server.url}/api/webhooks/${WEBHOOK_ID}/${TOKEN}`,
    token: TOKEN,
    state,
    threads,
    received,
  };
}
