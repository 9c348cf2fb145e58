// A fake of Discord's webhook API for a forum channel, answering like the real one:
//   POST  /api/webhooks/<id>/<token>?wait=true with thread_name -> a new thread; answers the message
//         object ({ id, channel_id = the thread's id, content, embeds, ... })
//   POST  /api/webhooks/<id>/<token>?wait=true&thread_id=<thread> -> a message in that thread
//   PATCH /api/webhooks/<id>/<token>/messages/<message_id>?thread_id=<thread> -> edits it
// Without wait=true a post answers 204. A forum post without thread_name or thread_id, or a body
// over Discord's limits (content 2000, thread_name 100, embed description 4096, embeds 6000 in
// all), answers 400 { code, message, errors }; a wrong token 401, an unknown message or thread 404.
// Every answer carries X-RateLimit-Limit/-Remaining/-Reset-After/-Bucket. Failure modes, taken one
// per call from `state.failures` (else `state.failure`): "rateLimited" (429 with retry_after in
// the body plus Retry-After and the rate-limit headers), "error500", "error502", "hang".
import { fakeUpstream, json } from "../upstream.ts";

export type DiscordFailure = "none" | "rateLimited" | "error500" | "error502" | "hang";
export type DiscordMessage = { id: string; channel_id: string; content: string; embeds: unknown[] };
export type Received = { method: string; path: string; query: Record<string, string>; body: Record<string, unknown> };

const WEBHOOK_ID = "1311122233344455566";
const TOKEN = "fake-webhook-token-Zx9Qm2";

export function fakeDiscord() {
  let nextId = 1_400_000_000_000_000_000n;
  const snowflake = () => String(nextId++);
  const threads = new Map<string, { name: string; messages: DiscordMessage[] }>();
  const received: Received[] = [];
  const state = { failure: "none" as DiscordFailure, failures: [] as DiscordFailure[], retryAfter: 1.5, limit: 50, used: 0, hung: 0 };

  const rateHeaders = (remaining: number) => ({
    "x-ratelimit-limit": String(state.limit),
    "x-ratelimit-remaining": String(remaining),
    "x-ratelimit-reset": String((Date.now() + 2000) / 1000),
    "x-ratelimit-reset-after": "2.000",
    "x-ratelimit-bucket": "f3ad8b1c2e9d0a7b6c5d4e3f2a1b0c9d",
  });

  /** The failure this call meets, or a Response for it. */
  async function failureResponse(): Promise<Response | undefined> {
    const mode = state.failures.shift() ?? state.failure;
    switch (mode) {
      case "rateLimited":
        return json({ message: "You are being rate limited.", retry_after: state.retryAfter, global: false }, 429, {
          ...rateHeaders(0),
          "retry-after": String(Math.ceil(state.retryAfter)),
          "x-ratelimit-reset-after": state.retryAfter.toFixed(3),
          "x-ratelimit-scope": "shared",
        });
      case "error500":
        return json({ message: "500: Internal Server Error", code: 0 }, 500);
      case "error502":
        return new Response("<html><body>502 Bad Gateway</body></html>", { status: 502, headers: { "content-type": "text/html" } });
      case "hang":
        state.hung++;
        await new Promise(() => {}); // never answers
    }
    return undefined;
  }

  const ok = (body: unknown, status = 200) => {
    state.used++;
    const remaining = state.limit - 1 - ((state.used - 1) % state.limit);
    return status === 204 ? new Response(null, { status, headers: rateHeaders(remaining) }) : json(body, status, rateHeaders(remaining));
  };

  function tooLong(body: Record<string, unknown>): Record<string, unknown> | undefined {
    const errors: Record<string, unknown> = {};
    const long = (max: number) => ({ _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${max} or fewer in length.` }] });
    if (typeof body.content === "string" && [...body.content].length > 2000) errors.content = long(2000);
    if (typeof body.thread_name === "string" && [...body.thread_name].length > 100) errors.thread_name = long(100);
    const embeds = (body.embeds ?? []) as { title?: string; description?: string; footer?: { text?: string } }[];
    let total = 0;
    embeds.forEach((e, i) => {
      if ((e.description?.length ?? 0) > 4096) errors[`embeds.${i}.description`] = long(4096);
      if ((e.title?.length ?? 0) > 256) errors[`embeds.${i}.title`] = long(256);
      total += (e.title?.length ?? 0) + (e.description?.length ?? 0) + (e.footer?.text?.length ?? 0);
    });
    if (total > 6000) errors.embeds = { _errors: [{ code: "MAX_EMBED_SIZE_EXCEEDED", message: "Embed size exceeds maximum size of 6000" }] };
    return Object.keys(errors).length ? { code: 50035, message: "Invalid Form Body", errors } : undefined;
  }

  function authorised(path: string): boolean {
    const [, , , id, token] = path.split("/");
    return id === WEBHOOK_ID && token === TOKEN;
  }

  const server = fakeUpstream({
    "POST /api/webhooks/:id/:token": async (_req, call) => {
      if (!authorised(call.path)) return json({ message: "Invalid Webhook Token", code: 50027 }, 401);
      const body = JSON.parse(call.body) as Record<string, unknown>;
      received.push({ method: "POST", path: call.path, query: Object.fromEntries(call.query), body });
      const failed = await failureResponse();
      if (failed) return failed;
      const invalid = tooLong(body);
      if (invalid) return json(invalid, 400);
      const threadId = call.query.get("thread_id");
      let channel: string;
      if (threadId) {
        if (!threads.has(threadId)) return json({ message: "Unknown Channel", code: 10003 }, 404);
        channel = threadId;
      } else if (typeof body.thread_name === "string") {
        channel = snowflake();
        threads.set(channel, { name: body.thread_name, messages: [] });
      } else {
        return json({ message: "Webhooks posted to forum channels must have a thread_name or thread_id", code: 220001 }, 400);
      }
      const message: DiscordMessage = { id: snowflake(), channel_id: channel, content: String(body.content ?? ""), embeds: (body.embeds as unknown[]) ?? [] };
      threads.get(channel)!.messages.push(message);
      if (call.query.get("wait") !== "true") return ok(undefined, 204);
      return ok({ ...message, type: 0, webhook_id: WEBHOOK_ID, author: { id: WEBHOOK_ID, username: "tally", bot: true }, attachments: [], mentions: [], pinned: false, tts: false, flags: 0, timestamp: new Date().toISOString() });
    },
    "PATCH /api/webhooks/:id/:token/messages/:message": async (_req, call) => {
      if (!authorised(call.path)) return json({ message: "Invalid Webhook Token", code: 50027 }, 401);
      const body = JSON.parse(call.body) as Record<string, unknown>;
      received.push({ method: "PATCH", path: call.path, query: Object.fromEntries(call.query), body });
      const failed = await failureResponse();
      if (failed) return failed;
      const invalid = tooLong(body);
      if (invalid) return json(invalid, 400);
      const thread = threads.get(call.query.get("thread_id") ?? "");
      const message = thread?.messages.find((m) => m.id === call.path.split("/").at(-1));
      if (!message) return json({ message: "Unknown Message", code: 10008 }, 404);
      if (typeof body.content === "string") message.content = body.content;
      if (Array.isArray(body.embeds)) message.embeds = body.embeds;
      return ok({ ...message, type: 0, webhook_id: WEBHOOK_ID, edited_timestamp: new Date().toISOString() });
    },
  });
  return {
    ...server,
    /** The webhook URL to configure (a secret, like the real one). */
    webhookUrl: `${server.url}/api/webhooks/${WEBHOOK_ID}/${TOKEN}`,
    token: TOKEN,
    state,
    threads,
    received,
  };
}
