// Settings: Personal access tokens (src/tokens/).
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { setting } from "./setting.ts";

export const tokensSettings = {
  tokensMaxPerAccount: setting({
    env: "TOKENS_MAX_PER_ACCOUNT",
    schema: T.Integer({ minimum: 1, maximum: 100 }),
    default: "10",
    doc: "Personal access tokens one account may hold at once (revoked and expired ones do not count once gone).",
  }),
  tokenMaxDays: setting({
    env: "TOKEN_MAX_DAYS",
    schema: T.Integer({ minimum: 0, maximum: 3650 }),
    default: "365",
    doc: "Longest lifetime of a personal access token, in days; a token made without an expiry gets this one. 0: no bound, and a token made without an expiry never expires.",
  }),
  tokenRateLimit: setting({
    env: "TOKEN_RATE_LIMIT_PER_MINUTE",
    schema: T.Integer({ minimum: 1, maximum: 100_000 }),
    default: "60",
    doc: "Requests one personal access token may make per minute (answers carry RateLimit-* headers; past it 429 with Retry-After).",
  }),
} as const;
