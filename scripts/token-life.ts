// A personal access token's life as requests and answers (issue 37's closing note): made with the
// mod's sign-in, listed, used by a read route with its rate limit counted down in the headers,
// refused past the limit with Retry-After, refused on a route that writes, let through again in the
// next minute, revoked, then refused. Runs the service in this process (an embedded database in
// memory, a fixed clock, TOKEN_RATE_LIMIT_PER_MINUTE=3) and prints the exchange; secrets are cut
// short in the print (the service answers them whole, once).
//   bun scripts/token-life.ts [out.txt]
import { testApp } from "../test/support/app.ts";
import { envelope, PROFILE } from "../test/support/uploads.ts";

const out: string[] = [];
const say = (line = "") => out.push(line);
const HEADERS = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after", "www-authenticate"];
/** A secret cut to its first characters: the transcript shows its shape, never a usable token. */
const cut = (text: string) => text.replace(/(tly_[A-Za-z0-9_-]{6})[A-Za-z0-9_-]+/g, "$1…");
/** A bearer (a device session's or a token) cut to its first characters. */
const cutBearer = (secret: string) => `${secret.slice(0, secret.startsWith("tly_") ? 10 : 6)}…`;

const t = await testApp({
  settings: { devSignin: true, tokenRateLimit: 3, tokenMaxDays: 365 },
  now: "2026-06-01T12:00:15Z",
});
try {
  async function exchange(method: string, path: string, auth: string | null, body?: unknown, note?: string) {
    if (note) say(`# ${note}`);
    const headers: Record<string, string> = {};
    if (auth) headers.authorization = `Bearer ${auth}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    say(`> ${method} ${path}`);
    if (auth)
      say(`> Authorization: Bearer ${cutBearer(auth)}${auth.startsWith("tly_") ? "" : " (the mod's device session)"}`);
    if (body !== undefined) say(`> ${JSON.stringify(body)}`);
    const res = await t.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    say(`< ${res.status}`);
    for (const h of HEADERS) if (res.headers.get(h) !== null) say(`< ${h}: ${res.headers.get(h)}`);
    say(`< ${cut(text.length > 400 ? `${text.slice(0, 400)}…` : text)}`);
    say();
    return { status: res.status, json: text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : null };
  }

  const signIn = await t.postJson("/v1/auth/dev", { uuid: "7".repeat(32), name: "Token_Owner", zone: "UTC" });
  const session = ((await signIn.json()) as { token: string }).token;
  await t.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { authorization: `Bearer ${session}`, "content-type": "application/json" },
    body: JSON.stringify({
      settingsVersion: 1,
      categories: Object.fromEntries(t.catalogue.categories.map((c) => [c, true])),
    }),
  });
  const upload = envelope(t, {
    zone: { id: "UTC" },
    counters: [{ profileId: PROFILE, scope: "day", day: "2026-06-01", rows: [{ k: "mining.blocks.stone", v: 1234 }] }],
  });
  await t.postJson("/v1/stats/ingest", JSON.stringify(upload), { headers: { authorization: `Bearer ${session}` } });
  say(
    `A token's life on tally (TOKEN_RATE_LIMIT_PER_MINUTE=3; the clock starts at ${new Date(t.clock.now()).toISOString()}).`,
  );
  say("The player is signed in with the mod (a device session) and has uploaded a day. Secrets are cut short here.");
  say();

  const made = await exchange(
    "POST",
    "/v1/stats/tokens",
    session,
    { label: "Discord bot", scopes: ["stats:read"], expiresInDays: 30 },
    "1. The player makes a token with the mod's sign-in: its secret is answered this once.",
  );
  const token = String(made.json?.token);
  const id = String(made.json?.id);
  await exchange("GET", "/v1/stats/tokens", session, undefined, "2. The list: label, scopes, times; never the secret.");
  const totals = `/v1/stats/totals?profile=${PROFILE}`;
  for (let i = 1; i <= 3; i++)
    await exchange(
      "GET",
      totals,
      token,
      undefined,
      `3.${i}. The bot reads the totals with the token: the limit counts down.`,
    );
  await exchange("GET", totals, token, undefined, "4. A fourth read in the same minute: refused, with Retry-After.");
  await exchange(
    "POST",
    "/v1/stats/ingest",
    token,
    { note: "a token never writes; the body is not even read" },
    "5. The token on a route that writes: refused, whatever its scopes.",
  );
  t.clock.advance(60_000 - (t.clock.now() % 60_000));
  await exchange(
    "GET",
    totals,
    token,
    undefined,
    `6. The next minute (${new Date(t.clock.now()).toISOString()}): let through again.`,
  );
  await exchange(
    "GET",
    "/v1/stats/tokens",
    session,
    undefined,
    "7. The list shows when it was last used (kept to the minute: the row is written at most once a minute).",
  );
  await exchange("DELETE", `/v1/stats/tokens/${id}`, session, undefined, "8. The player revokes it.");
  await exchange("GET", totals, token, undefined, "9. The revoked token: refused at once.");
  await exchange("GET", "/v1/stats/tokens", session, undefined, "10. The list is empty.");
} finally {
  await t.close();
}
const text = `${out.join("\n")}\n`;
const file = process.argv[2];
if (file) await Bun.write(file, text);
else process.stdout.write(text);
