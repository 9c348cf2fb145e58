// Settings: Sign-in, device sessions and the page link (src/auth/).
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { setting, Millis, Bool } from "./setting.ts";

export const authSettings = {
  challengeTtlMs: setting({
    env: "AUTH_CHALLENGE_TTL_MS",
    schema: Millis(5_000, 600_000),
    default: "60000",
    doc: "How long a sign-in challenge (serverId) stays valid; it is single use either way.",
  }),
  tokenTtlDays: setting({
    env: "AUTH_TOKEN_TTL_DAYS",
    schema: T.Integer({ minimum: 1, maximum: 3650 }),
    default: "180",
    doc: "Lifetime of a device session's token, in days.",
  }),
  pageTokenTtlMs: setting({
    env: "PAGE_TOKEN_TTL_MS",
    schema: Millis(10_000, 3_600_000),
    default: "600000",
    doc: "Lifetime of the link that opens a player's own statistics page; the link is spent by its first use.",
  }),
  pageCookieTtlMs: setting({
    env: "PAGE_COOKIE_TTL_MS",
    schema: Millis(60_000, 86_400_000),
    default: "3600000",
    doc: "How long a browser keeps a player's own statistics page open after its page link (an HttpOnly cookie): a fixed end, never renewed; signing out ends it sooner.",
  }),
  authRateLimit: setting({
    env: "AUTH_RATE_LIMIT_PER_MINUTE",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "30",
    doc: "Sign-in requests (challenge, verify, dev) one client address may make per minute. 0: no limit.",
  }),
  devSignin: setting({
    env: "DEV_SIGNIN",
    schema: Bool,
    default: "false",
    doc: "true enables POST /v1/auth/dev (sign in as anyone, for development only).",
  }),
} as const;
