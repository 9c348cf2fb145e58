// The scopes of a personal access token. A token only ever reads: no scope writes counters, signs
// a device in, or changes settings or tokens (those routes take device sessions only).
export const SCOPES = ["stats:read", "page:read", "export"] as const;
export type Scope = (typeof SCOPES)[number];

/** What each scope lets a token read, in words (the API's description and the owner's page). */
export const SCOPE_WORDS: Record<Scope, string> = {
  "stats:read": "the folded statistics (profiles, totals, series, days, periods)",
  "page:read":
    "what the statistics page shows (profiles, totals, series, periods, the page's JSON even when not findable)",
  export: "the whole export (JSON and CSV)",
};

export const parseScopes = (stored: string): Scope[] =>
  stored.split(" ").filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
