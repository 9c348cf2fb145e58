// Settings: Statistics pages, cards and badges: rates, the page cache, the render budget (src/web/, src/cards/).
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { setting, Millis, Bytes } from "./setting.ts";

export const pagesSettings = {
  pageRateLimit: setting({
    env: "PAGE_RATE_LIMIT_PER_MINUTE",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "120",
    doc: "Statistics pages (/u/<name>, /s/<key>) one client address may open per minute. 0: no limit.",
  }),
  pageCacheTtlMs: setting({
    env: "PAGE_CACHE_TTL_MS",
    schema: Millis(0, 3_600_000),
    default: "30000",
    doc: "How long a rendered statistics page of a findable player or a share link is kept and answered again, unless the player uploads or changes settings first. 0: no cache.",
  }),
  pageCacheMaxBytes: setting({
    env: "PAGE_CACHE_MAX_BYTES",
    schema: Bytes(0, 4 * 1024 * 1024 * 1024),
    default: "33554432",
    doc: "Memory the cache of rendered statistics pages may take, in bytes (and at most 512 pages); the least recently used are forgotten first.",
  }),
  pageLifetimeFigures: setting({
    env: "PAGE_LIFETIME_MEMO_FIGURES",
    schema: T.Integer({ minimum: 0, maximum: 10_000_000 }),
    default: "50000",
    doc: "Lifetime figures (one a key of a profile) kept in memory between renders of one account's pages and cards (about 400 bytes a figure); the least recently used account is forgotten first. A page that differs only in its period, range or list page then costs no lifetime read. 0: every render reads them.",
  }),
  pageLifetimeMemoTtlMs: setting({
    env: "PAGE_LIFETIME_MEMO_TTL_MS",
    schema: Millis(0, 86_400_000),
    default: "600000",
    doc: "How long a profile's lifetime figures kept in memory (PAGE_LIFETIME_MEMO_FIGURES) are used after they were last read whole before they are read whole again, half a second after the page that finds them older (that page still answers from them; a later one gets the new read). On the embedded database every write (an upload, an import, an erasure, retention) says what it changed and only those keys are read again, so this only bounds what no write told of (another instance's jobs on Postgres).",
  }),
  pageLifetimeSnapshotMinKeys: setting({
    env: "PAGE_LIFETIME_SNAPSHOT_MIN_KEYS",
    schema: T.Integer({ minimum: 0, maximum: 10_000_000 }),
    default: "2000",
    doc: "A profile with at least this many keys also keeps its lifetime figures (PAGE_LIFETIME_MEMO_FIGURES) in the database, about 230 bytes a key, written half a second after the read that made them: its first page after a restart, after the memory forgot it, or on another instance reads that one row for the same state instead of every key (10 000 keys: 12-15 ms instead of 150-180 ms). Retention, imports and erasure delete it. 0: never (and never with PAGE_LIFETIME_MEMO_FIGURES 0).",
  }),
  pageStatementTimeoutMs: setting({
    env: "PAGE_STATEMENT_TIMEOUT_MS",
    schema: Millis(0, 600_000),
    default: "5000",
    doc: "Postgres: longest one statement of a statistics page, card or badge may run before Postgres cancels it and the page answers 503 (0: only DATABASE_STATEMENT_TIMEOUT_MS applies). The embedded database cannot cancel a running statement; there a page's reads are bounded by what they read.",
  }),
  pageRendersAtOnce: setting({
    env: "PAGE_RENDERS_AT_ONCE",
    schema: T.Integer({ minimum: 0, maximum: 1000 }),
    default: "4",
    doc: "Statistics pages, cards and badges one instance renders at once (copies kept in the page cache are answered without waiting); more wait their turn. 0: no limit.",
  }),
  pageRenderQueue: setting({
    env: "PAGE_RENDER_QUEUE",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "64",
    doc: "Renders that may wait for their turn (PAGE_RENDERS_AT_ONCE); more are answered 503 server_busy with Retry-After at once, and on SIGTERM the waiting ones are.",
  }),
  pageRenderBudgetMs: setting({
    env: "PAGE_RENDER_MS_PER_ACCOUNT_PER_MINUTE",
    schema: T.Integer({ minimum: 0, maximum: 3_600_000 }),
    default: "10000",
    doc: "Milliseconds of rendering one player's statistics pages, badges and cards may cost per minute, whoever asks (copies kept in the page cache cost nothing); past it they answer 429 rate_limited until the next minute. Bounds what one large account can make the service spend. 0: no limit.",
  }),
  cardRateLimit: setting({
    env: "CARD_RATE_LIMIT_PER_MINUTE",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "120",
    doc: "Link preview cards and badges one client address may ask for per minute. 0: no limit.",
  }),
  cardCacheEntries: setting({
    env: "CARD_CACHE_ENTRIES",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "256",
    doc: "Rendered link preview cards kept in memory (about 30 to 80 KiB each; least recently used goes first). 0: render every time.",
  }),
} as const;
