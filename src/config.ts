// Every setting of the service in one table: environment name, default, one-line doc, schema.
// Parsed once at start; a bad value stops start-up with a message naming the variable and what
// it accepts. This is the only file that reads the environment.
import { type TSchema, type Static, Type as T, Kind } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

type Setting<S extends TSchema = TSchema> = {
  env: string;
  schema: S;
  /** The default as the environment would spell it; undefined means "not set". */
  default?: string;
  doc: string;
  /** Masked by check-config and never logged. */
  secret?: boolean;
  /** Said after what the setting accepts when a value is refused. */
  hint?: string;
};

const setting = <S extends TSchema>(s: Setting<S>) => s;

/** Contract 3 and 8: a day row is sealed 120 days back; no retention may be shorter. */
export const SEAL_HORIZON_DAYS = 120;

/** The embedded database's shared_buffers (Postgres's own default of 128 MB is touched whole at start). */
export const EMBEDDED_SHARED_BUFFERS_MB = 8;

const Url = T.String({ format: "http-url", maxLength: 2048 });
const OptionalUrl = T.Union([Url, T.Literal("")]);
const Port = T.Integer({ minimum: 0, maximum: 65535 });
const Millis = (minimum: number, maximum: number) => T.Integer({ minimum, maximum });
const Bytes = (minimum: number, maximum: number) => T.Integer({ minimum, maximum });
const Bool = T.Boolean();
/** An operator token: unset, or long enough that guessing it is hopeless. */
const OperatorToken = T.Union([T.Literal(""), T.String({ minLength: 32, maxLength: 256 })]);
const OPERATOR_TOKEN_HINT = "a short token can be guessed: make one with `openssl rand -base64 32`";

export const settings = {
  databaseUrl: setting({
    env: "DATABASE_URL",
    schema: T.Union([T.String({ pattern: "^postgres(ql)?://", maxLength: 2048 }), T.Literal("")]),
    default: "",
    doc: "Postgres connection URL. Empty: the embedded database in DATA_DIR.",
    secret: true,
  }),
  databasePoolMax: setting({
    env: "DATABASE_POOL_MAX",
    schema: T.Integer({ minimum: 3, maximum: 1000 }),
    default: "10",
    doc: "Most connections this instance opens to Postgres (at least 3: a running job holds one for its lock while it works through another, and requests need one).",
  }),
  databaseAcquireTimeoutMs: setting({
    env: "DATABASE_ACQUIRE_TIMEOUT_MS",
    schema: Millis(100, 600_000),
    default: "5000",
    doc: "Postgres: how long a request waits for a free pooled connection before it is answered 503 database_unavailable (Retry-After).",
  }),
  databaseStatementTimeoutMs: setting({
    env: "DATABASE_STATEMENT_TIMEOUT_MS",
    schema: Millis(100, 3_600_000),
    default: "30000",
    doc: "Postgres: longest one statement may run (sent as statement_timeout) and longest the service waits for any answer from Postgres (a frozen server, a held lock) before answering 503 database_unavailable.",
  }),
  databasePrepare: setting({
    env: "DATABASE_PREPARE",
    schema: Bool,
    default: "true",
    doc: "true prepares each statement once per connection (one round trip per statement). Set false behind a pooler in transaction mode that cannot carry prepared statements.",
  }),
  dataDir: setting({
    env: "DATA_DIR",
    schema: T.String({ minLength: 1, maxLength: 1024 }),
    default: "./data",
    doc: "Folder of the embedded database (created if missing; one process at a time).",
  }),
  embeddedSharedBuffersMb: setting({
    env: "EMBEDDED_SHARED_BUFFERS_MB",
    schema: T.Integer({ minimum: 1, maximum: 16384 }),
    default: String(EMBEDDED_SHARED_BUFFERS_MB),
    doc: "Embedded database: Postgres's page cache (shared_buffers) in MiB. It is resident memory from the start; raise it when the data outgrows it and pages read slowly.",
  }),
  embeddedMinFreeMb: setting({
    env: "EMBEDDED_MIN_FREE_MB",
    schema: T.Integer({ minimum: 0, maximum: 1048576 }),
    default: "64",
    doc: "Embedded database: while the disk holding DATA_DIR has less than this many MiB free, every request that needs the database is refused 503 storage_full (the embedded Postgres cannot recover from running out of space while it starts a 16 MiB WAL file). 0: no floor.",
  }),
  host: setting({
    env: "HOST",
    schema: T.String({ minLength: 1, maxLength: 255 }),
    default: "0.0.0.0",
    doc: "Address to listen on.",
  }),
  port: setting({ env: "PORT", schema: Port, default: "8080", doc: "Port to listen on (0 picks a free one)." }),
  baseUrl: setting({
    env: "BASE_URL",
    schema: OptionalUrl,
    default: "",
    doc: "Public address of this service, used for every page link it hands out. Empty: http://localhost:PORT.",
  }),
  logLevel: setting({
    env: "LOG_LEVEL",
    schema: T.Union([T.Literal("debug"), T.Literal("info"), T.Literal("warn"), T.Literal("error")]),
    default: "info",
    doc: "Least severe level written to the JSON log on standard output.",
  }),
  maxBodyBytes: setting({
    env: "MAX_BODY_BYTES",
    schema: Bytes(8192, 64 * 1024 * 1024),
    default: String(1024 * 1024),
    doc: "Largest request body accepted as sent over the wire (gzip or plain), in bytes.",
  }),
  maxDecodedBodyBytes: setting({
    env: "MAX_DECODED_BODY_BYTES",
    schema: Bytes(8192, 256 * 1024 * 1024),
    default: String(8 * 1024 * 1024),
    doc: "Largest upload (POST /v1/stats/ingest) after gunzip, in bytes (guards against gzip bombs).",
  }),
  smallBodyMaxBytes: setting({
    env: "SMALL_BODY_MAX_BYTES",
    schema: Bytes(1024, 1024 * 1024),
    default: "4096",
    doc: "Largest body after gunzip of the sign-in and account routes (challenge, verify, settings, page token, share), in bytes.",
  }),
  maxJsonDepth: setting({
    env: "MAX_JSON_DEPTH",
    schema: T.Integer({ minimum: 8, maximum: 1000 }),
    default: "32",
    doc: "Deepest nesting of arrays and objects in a request body; deeper is refused body_too_deep before it is parsed.",
  }),
  bodyDecodeBudgetBytes: setting({
    env: "BODY_DECODE_BUDGET_BYTES",
    schema: Bytes(64 * 1024, 4 * 1024 * 1024 * 1024),
    default: String(32 * 1024 * 1024),
    doc: "Bytes the upload and report bodies being read at once may take together: each reserves its declared length, then what it inflates to; the rest wait.",
  }),
  smallBodyDecodeBudgetBytes: setting({
    env: "SMALL_BODY_DECODE_BUDGET_BYTES",
    schema: Bytes(16 * 1024, 1024 * 1024 * 1024),
    default: String(4 * 1024 * 1024),
    doc: "Bytes the small routes' bodies (sign-in, settings, account routes, admin forms) being read at once may take together, apart from BODY_DECODE_BUDGET_BYTES so uploads and reports never starve them.",
  }),
  bodyDecodeQueue: setting({
    env: "BODY_DECODE_QUEUE",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "256",
    doc: "Request bodies that may wait for room in each of the two budgets; beyond, 503 server_busy with Retry-After.",
  }),
  bodyReadTimeoutMs: setting({
    env: "BODY_READ_TIMEOUT_MS",
    schema: Millis(50, 600_000),
    default: "10000",
    doc: "A request body must arrive whole within this many ms of its read starting; else 408 body_too_slow and the connection is closed.",
  }),
  bodyMinBytesPerSecond: setting({
    env: "BODY_MIN_BYTES_PER_SECOND",
    schema: T.Integer({ minimum: 0, maximum: 1024 * 1024 * 1024 }),
    default: "8192",
    doc: "After a fifth of BODY_READ_TIMEOUT_MS, a request body must have arrived at this many bytes a second on average; else 408 body_too_slow. 0: no rate, the timeout only.",
  }),
  bodyReadsPerAddress: setting({
    env: "BODY_READS_PER_ADDRESS",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "8",
    doc: "Request bodies one client address (IPv6: one /64) may have in flight at once in each budget; beyond, 429 too_many_bodies with Retry-After. 0: no limit. (A signed-in account may have one.)",
  }),
  shutdownGraceMs: setting({
    env: "SHUTDOWN_GRACE_MS",
    schema: Millis(0, 120_000),
    default: "10000",
    doc: "On SIGTERM/SIGINT, how long in-flight requests may run before the server closes them.",
  }),
  catalogueFile: setting({
    env: "CATALOGUE_FILE",
    schema: T.String({ maxLength: 1024 }),
    default: "",
    doc: "Path of a catalogue file to serve instead of the built-in one (for example the mod's own).",
  }),
  boardsFile: setting({
    env: "BOARDS_FILE",
    schema: T.String({ maxLength: 1024 }),
    default: "",
    doc: 'Path of a JSON file of boards (docs/decisions.md, "Boards: definitions") ranked instead of the built-in set; checked against the catalogue at start.',
  }),
  // boards
  groupMaxMembers: setting({
    env: "GROUP_MAX_MEMBERS",
    schema: T.Integer({ minimum: 2, maximum: 1_000 }),
    default: "100",
    doc: "Most members a player group holds, its creator included; joining a full group answers 409 group_full.",
  }),
  boardsRefreshMs: setting({
    env: "BOARDS_REFRESH_MS",
    schema: T.Integer({ minimum: 0, maximum: 3_600_000 }),
    default: "5000",
    doc: "How often the boards.refresh job moves the scores uploads touched (an upload only notes them, one statement). 0: after each upload, in the upload's wake (costs the upload about twice the CPU).",
  }),
  groupJoinFailures: setting({
    env: "GROUP_JOIN_FAILURES_PER_HOUR",
    schema: T.Integer({ minimum: 0, maximum: 10_000 }),
    default: "20",
    doc: "Wrong invite codes one client address (IPv6: one /64) may try per hour; beyond, 429 rate_limited. 0: no limit.",
  }),
  gameApiUrl: setting({
    env: "GAME_API_URL",
    schema: Url,
    default: "https://api.hypixel.net",
    doc: "Game platform API (profile lookups).",
  }),
  gameApiKey: setting({
    env: "GAME_API_KEY",
    schema: T.String({ maxLength: 256 }),
    default: "",
    doc: "The project's game API key. Empty: profile lookups answer no_upstream_key.",
    secret: true,
  }),
  gameApiMaxBytes: setting({
    env: "GAME_API_MAX_BYTES",
    schema: Bytes(1024 * 1024, 256 * 1024 * 1024),
    default: String(16 * 1024 * 1024),
    doc: "Largest game API answer read, in bytes (real profile answers run to about 3 MB); a larger one is refused as the upstream failing, read no further.",
  }),
  identityUrl: setting({
    env: "IDENTITY_URL",
    schema: Url,
    default: "https://sessionserver.mojang.com",
    doc: "Identity provider's session server (hasJoined, profile textures).",
  }),
  namesUrl: setting({
    env: "NAMES_URL",
    schema: Url,
    default: "https://api.mojang.com",
    doc: "Name to uuid look-ups.",
  }),
  texturesUrl: setting({
    env: "TEXTURES_URL",
    schema: Url,
    default: "https://textures.minecraft.net",
    doc: "Skin textures by hash.",
  }),
  itemImagesUrl: setting({
    env: "ITEM_IMAGES_URL",
    schema: OptionalUrl,
    default: "",
    doc: "Item images by item id. Empty: item images are not proxied.",
  }),
  chatWebhookUrl: setting({
    env: "CHAT_WEBHOOK_URL",
    schema: OptionalUrl,
    default: "",
    doc: "Maintainers' chat webhook for bug threads. Empty: reports are stored and counted only.",
    secret: true,
  }),
  upstreamTimeoutMs: setting({
    env: "UPSTREAM_TIMEOUT_MS",
    schema: Millis(100, 60_000),
    default: "5000",
    doc: "How long any upstream call a request waits on (identity provider, game API, names, images) may take before it counts as down. The chat outbox has CHAT_TIMEOUT_MS.",
  }),
  trustProxy: setting({
    env: "TRUST_PROXY",
    schema: Bool,
    default: "false",
    doc: "true: the client address is the last X-Forwarded-For entry (set only behind your own proxy).",
  }),
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
  authRateLimit: setting({
    env: "AUTH_RATE_LIMIT_PER_MINUTE",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "30",
    doc: "Sign-in requests (challenge, verify, dev) one client address may make per minute. 0: no limit.",
  }),
  retentionOptionsDays: setting({
    env: "RETENTION_OPTIONS_DAYS",
    schema: T.Array(T.Integer({ minimum: SEAL_HORIZON_DAYS, maximum: 36_500 }), { minItems: 1, maxItems: 20 }),
    default: "120,365,730,1825",
    doc: `Retention periods a player may choose, in days (each at least the ${SEAL_HORIZON_DAYS}-day seal horizon).`,
  }),
  retentionDefaultDays: setting({
    env: "RETENTION_DEFAULT_DAYS",
    schema: T.Integer({ minimum: SEAL_HORIZON_DAYS, maximum: 36_500 }),
    default: "730",
    doc: "Retention of a new account, in days; must be one of RETENTION_OPTIONS_DAYS.",
  }),
  ingestMaxRows: setting({
    env: "INGEST_MAX_ROWS",
    schema: T.Integer({ minimum: 100, maximum: 1_000_000 }),
    default: "50000",
    doc: "Most counter rows one upload may carry (more is refused too_many_rows; the mod splits).",
  }),
  statsMaxKeysPerProfile: setting({
    env: "STATS_MAX_KEYS_PER_PROFILE",
    schema: T.Integer({ minimum: 10, maximum: 1_000_000 }),
    default: "10000",
    doc: "Most distinct counter keys one profile (and the account scope) may hold; rows of further new keys are refused too_many_keys in the upload's answer, the rest of the upload is stored.",
  }),
  statsMaxProfilesPerAccount: setting({
    env: "STATS_MAX_PROFILES_PER_ACCOUNT",
    schema: T.Integer({ minimum: 1, maximum: 100_000 }),
    default: "100",
    doc: "Most game profiles one account's statistics may hold (a player has a handful at a time); an upload for one more is refused too_many_profiles and stores nothing. Bounds what an account's pages list and read.",
  }),
  clockSkewWarnMs: setting({
    env: "INGEST_CLOCK_SKEW_WARN_MS",
    schema: Millis(1_000, 86_400_000),
    default: "300000",
    doc: "An upload whose sentAt is further than this from the service's clock gets a clock_skew warning (never a refusal).",
  }),
  devSignin: setting({
    env: "DEV_SIGNIN",
    schema: Bool,
    default: "false",
    doc: "true enables POST /v1/auth/dev (sign in as anyone, for development only).",
  }),
  profileCacheHours: setting({
    env: "PROFILE_CACHE_HOURS",
    schema: T.Integer({ minimum: 1, maximum: 48 }),
    default: "2",
    doc: "How long a profile lookup is answered from the cache before the game API is asked again, in hours.",
  }),
  profileStaleHours: setting({
    env: "PROFILE_STALE_HOURS",
    schema: T.Integer({ minimum: 0, maximum: 720 }),
    default: "72",
    doc: "How old a cached profile may be and still be served (marked stale) while the game API fails, in hours. 0: never.",
  }),
  gameApiReserve: setting({
    env: "GAME_API_RESERVE",
    schema: T.Integer({ minimum: 0, maximum: 1000 }),
    default: "5",
    doc: "Calls of the game API's rate-limit window left unused: at this RateLimit-Remaining, lookups wait for RateLimit-Reset.",
  }),
  nameCacheHours: setting({
    env: "NAME_CACHE_HOURS",
    schema: T.Integer({ minimum: 1, maximum: 720 }),
    default: "24",
    doc: "How long a player name's uuid is kept before the name service is asked again, in hours.",
  }),
  assetCacheHours: setting({
    env: "ASSET_CACHE_HOURS",
    schema: T.Integer({ minimum: 1, maximum: 720 }),
    default: "24",
    doc: "How long a rendered head or an item image is kept before its upstream is asked again, in hours (a skin, addressed by its hash, never changes and is not asked again; every image is forgotten after CACHE_MAX_AGE_HOURS).",
  }),
  cacheMaxAgeHours: setting({
    env: "CACHE_MAX_AGE_HOURS",
    schema: T.Integer({ minimum: 1, maximum: 8760 }),
    default: "72",
    doc: "Longest any cached copy of another player's public data (profile documents, name look-ups, heads, skins, item images) is kept, fresh or stale; the caches job deletes older rows. At least PROFILE_CACHE_HOURS, NAME_CACHE_HOURS and ASSET_CACHE_HOURS.",
  }),
  unknownPlayerCacheMinutes: setting({
    env: "UNKNOWN_PLAYER_CACHE_MINUTES",
    schema: T.Integer({ minimum: 1, maximum: 1440 }),
    default: "10",
    doc: "How long a head asked for a uuid the identity provider does not know is answered without asking again (the default head is shown; nothing else is kept), in minutes.",
  }),
  upstreamMissBudget: setting({
    env: "UPSTREAM_MISS_BUDGET_PER_MINUTE",
    schema: T.Integer({ minimum: 0, maximum: 1_000_000 }),
    default: "60",
    doc: "Cache misses each upstream (game API, name service, identity provider for heads, textures, item images) may cost per minute, over every client and instance together; beyond, a stale copy or the default head is served, else 503 upstream_rate_limited. Sign-ins never count. 0: no budget.",
  }),
  imageMaxBytes: setting({
    env: "IMAGE_MAX_BYTES",
    schema: Bytes(1024, 16 * 1024 * 1024),
    default: "262144",
    doc: "Largest image the proxy accepts from an upstream, in bytes; a larger one is refused unread.",
  }),
  itemImageMaxSide: setting({
    env: "ITEM_IMAGE_MAX_SIDE",
    schema: T.Integer({ minimum: 16, maximum: 1024 }),
    default: "256",
    doc: "Largest width or height of an item image, in pixels.",
  }),
  lookupRateLimit: setting({
    env: "LOOKUP_RATE_LIMIT_PER_MINUTE",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "60",
    doc: "Profile and player look-ups one client address may make per minute. 0: no limit.",
  }),
  assetRateLimit: setting({
    env: "ASSET_RATE_LIMIT_PER_MINUTE",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "600",
    doc: "Image proxy requests one client address may make per minute. 0: no limit.",
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
    doc: "Lifetime figures (one a key of a profile) kept in memory between renders of one account's pages and cards while it has not uploaded since, at most PAGE_CACHE_TTL_MS each (about 400 bytes a figure); the least recently used account is forgotten first. A page that differs only in its period, range or list page then costs no lifetime read. 0: every render reads them.",
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
  exportsMaxRunning: setting({
    env: "EXPORTS_MAX_RUNNING",
    schema: T.Integer({ minimum: 1, maximum: 1000 }),
    default: "4",
    doc: "Exports (JSON and CSV) one instance streams at once, one per account; beyond, 503 server_busy with Retry-After.",
  }),
  importMaxBytes: setting({
    env: "IMPORT_MAX_BYTES",
    schema: Bytes(64 * 1024, 16 * 1024 * 1024 * 1024),
    default: String(512 * 1024 * 1024),
    doc: "Largest export file an import (POST /v1/stats/import, tally import) takes, decoded; it is read as it streams (never held whole), so this bounds time, not memory. More is refused body_too_large and stores nothing.",
  }),
  importMaxWireBytes: setting({
    env: "IMPORT_MAX_WIRE_BYTES",
    schema: Bytes(8192, 1024 * 1024 * 1024),
    default: String(64 * 1024 * 1024),
    doc: "Largest gzip body POST /v1/stats/import accepts as sent; it is held, and counted in the large bodies' pool (BODY_DECODE_BUDGET_BYTES), while the file is read twice (checked, then applied); one file per account at a time.",
  }),
  importBatchRows: setting({
    env: "IMPORT_BATCH_ROWS",
    schema: T.Integer({ minimum: 10, maximum: 50_000 }),
    default: "5000",
    doc: "Rows of an import file written per statement; between batches other requests get a turn of the event loop.",
  }),
  exportPageRows: setting({
    env: "EXPORT_PAGE_ROWS",
    schema: T.Integer({ minimum: 10, maximum: 50_000 }),
    default: "1000",
    doc: "Stored rows an export reads per statement (a keyset page); between pages other requests are served.",
  }),
  reportTools: setting({
    env: "REPORT_TOOLS",
    schema: T.Array(T.String({ pattern: "^[a-z][a-z0-9_-]{0,31}$", maxLength: 32 }), { maxItems: 64 }),
    default: "general",
    doc: "The mod's features that may send bug reports (POST /v1/reports/<tool>); another tool answers 404.",
  }),
  reportRateLimit: setting({
    env: "REPORT_RATE_LIMIT_PER_HOUR",
    schema: T.Integer({ minimum: 0, maximum: 1_000_000 }),
    default: "30",
    doc: "Bug reports one client address may send per hour. 0: no limit.",
  }),
  reportMaxBodyBytes: setting({
    env: "REPORT_MAX_BODY_BYTES",
    schema: Bytes(4096, 1024 * 1024),
    default: "65536",
    doc: "Largest bug report body after gunzip, in bytes.",
  }),
  reportSamplesKept: setting({
    env: "REPORT_SAMPLES_KEPT",
    schema: T.Integer({ minimum: 1, maximum: 100 }),
    default: "5",
    doc: "How many recent scrubbed reports each problem keeps.",
  }),
  reportRegressionMinAccounts: setting({
    env: "REPORT_REGRESSION_MIN_ACCOUNTS",
    schema: T.Integer({ minimum: 0, maximum: 1000 }),
    default: "1",
    doc: "A bug report reopens a resolved problem only when at least this many signed-in accounts upload from its mod version (a stranger cannot claim a version nobody runs). 0: any version may (a service that takes no uploads).",
  }),
  reportAppPackages: setting({
    env: "REPORT_APP_PACKAGES",
    schema: T.Array(T.String({ pattern: "^[A-Za-z_][A-Za-z0-9_.$]{0,127}$", maxLength: 128 }), { maxItems: 32 }),
    default: "",
    doc: "Java package prefixes of the mod's own code (stack frames that group problems). Empty: every frame outside the JDK, the game, its loaders and common libraries.",
  }),
  releaseHealthDays: setting({
    env: "RELEASE_HEALTH_DAYS",
    schema: T.Integer({ minimum: 7, maximum: 3650 }),
    default: "180",
    doc: "How many days of release health (active installs with statistics on and bug reports, per mod version and UTC day) are kept.",
  }),
  releaseSummaryMinInstalls: setting({
    env: "RELEASE_SUMMARY_MIN_INSTALLS",
    schema: T.Integer({ minimum: 1, maximum: 100_000_000 }),
    default: "50",
    doc: "Active installs (with statistics on) a new mod version must reach in one UTC day before the chat gets its release summary (posted that day and once more a week later).",
  }),
  chatReplyThresholds: setting({
    env: "CHAT_REPLY_THRESHOLDS",
    schema: T.Array(T.Integer({ minimum: 2, maximum: 1_000_000_000 }), { maxItems: 32 }),
    default: "10,100,1000,10000",
    doc: "Counts at which a problem's chat thread gets a reply (the starter message's count is edited on every repeat).",
  }),
  chatForumTagIds: setting({
    env: "CHAT_FORUM_TAG_IDS",
    schema: T.Array(T.String({ pattern: "^[0-9]{1,20}$", maxLength: 20 }), { maxItems: 5 }),
    default: "",
    doc: "Ids of the forum tags to apply to each new bug thread (comma-separated, at most 5); needed when the forum requires a tag. Empty: no tags.",
  }),
  chatRetryBaseMs: setting({
    env: "CHAT_RETRY_BASE_MS",
    schema: Millis(100, 3_600_000),
    default: "5000",
    doc: "First wait before retrying the chat after a failure; it doubles on each failure in a row.",
  }),
  chatRetryMaxMs: setting({
    env: "CHAT_RETRY_MAX_MS",
    schema: Millis(1000, 86_400_000),
    default: "600000",
    doc: "Longest wait between chat retries.",
  }),
  chatTimeoutMs: setting({
    env: "CHAT_TIMEOUT_MS",
    schema: Millis(100, 600_000),
    default: "60000",
    doc: "How long one call of the chat outbox (a background job nobody waits on) may take, its whole answer included. A new thread or reply whose answer does not come within it may be in the chat or not: see CHAT_UNCERTAIN_PAUSE_MS.",
  }),
  chatUncertainPauseMs: setting({
    env: "CHAT_UNCERTAIN_PAUSE_MS",
    schema: Millis(1000, 86_400_000),
    default: "900000",
    doc: "How long a problem waits before its thread (or reply) is posted once more when the chat never answered the first post; the new thread says an earlier one may exist. Other problems keep being posted meanwhile.",
  }),
  pseudonymKey: setting({
    env: "PSEUDONYM_KEY",
    schema: T.Union([T.String({ minLength: 32, maxLength: 256 }), T.Literal("")]),
    default: "",
    doc: "Key of the player-name pseudonyms in bug reports. Empty: a random key generated once and kept in the database.",
    secret: true,
  }),
  jobReportsChatEnabled: setting({
    env: "JOB_REPORTS_CHAT_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off the job that posts bug reports to the chat (the outbox keeps them).",
  }),
  jobStartDelayMs: setting({
    env: "JOB_START_DELAY_MS",
    schema: Millis(0, 3_600_000),
    default: "2000",
    doc: "How long after start-up the jobs first run (then every interval): the first requests are answered before them.",
  }),
  jobReportsChatIntervalMs: setting({
    env: "JOB_REPORTS_CHAT_INTERVAL_MS",
    schema: Millis(100, 86_400_000),
    default: "5000",
    doc: "How often the job that posts bug reports to the chat runs.",
  }),
  jobReleaseHealthEnabled: setting({
    env: "JOB_RELEASE_HEALTH_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off the job that counts the day's installs per mod version (release health), deletes their ids once the day is counted, and posts release summaries.",
  }),
  jobReleaseHealthIntervalMs: setting({
    env: "JOB_RELEASE_HEALTH_INTERVAL_MS",
    schema: Millis(1000, 86_400_000),
    default: "600000",
    doc: "How often the release-health job runs (today's counts on the pages are at most this old).",
  }),
  jobStatsSealEnabled: setting({
    env: "JOB_STATS_SEAL_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off the seal (collapsing each day's installs once it is older than the 120-day horizon).",
  }),
  jobStatsSealIntervalMs: setting({
    env: "JOB_STATS_SEAL_INTERVAL_MS",
    schema: Millis(1_000, 7 * 86_400_000),
    default: "3600000",
    doc: "How often the job runs: the seal (collapsing each day's installs once it is older than the 120-day horizon).",
  }),
  jobStatsRetentionEnabled: setting({
    env: "JOB_STATS_RETENTION_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off the retention seal (folding days older than each account's retention into its baseline, then deleting them).",
  }),
  jobStatsRetentionIntervalMs: setting({
    env: "JOB_STATS_RETENTION_INTERVAL_MS",
    schema: Millis(1_000, 7 * 86_400_000),
    default: "3600000",
    doc: "How often the job runs: the retention seal (folding days older than each account's retention into its baseline, then deleting them).",
  }),
  jobStatsRollupsEnabled: setting({
    env: "JOB_STATS_ROLLUPS_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off closing days into the rollups (each account's days up to its today minus 2; later days are folded when read). Leave it on: with it off, open days pile up and every upload and statistics read slows down with them.",
  }),
  jobStatsRollupsIntervalMs: setting({
    env: "JOB_STATS_ROLLUPS_INTERVAL_MS",
    schema: Millis(1_000, 7 * 86_400_000),
    default: "600000",
    doc: "How often the job runs: closing days into the rollups (each account's days up to its today minus 2; later days are folded when read).",
  }),
  jobStatsBatchesEnabled: setting({
    env: "JOB_STATS_BATCHES_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off forgetting ingest answers older than the 7-day duplicate window.",
  }),
  jobStatsBatchesIntervalMs: setting({
    env: "JOB_STATS_BATCHES_INTERVAL_MS",
    schema: Millis(1_000, 7 * 86_400_000),
    default: "3600000",
    doc: "How often the job runs: forgetting ingest answers older than the 7-day duplicate window.",
  }),
  jobRecapsCloseEnabled: setting({
    env: "JOB_RECAPS_CLOSE_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off storing each account's month and year recaps once the period has closed in its zone.",
  }),
  jobRecapsCloseIntervalMs: setting({
    env: "JOB_RECAPS_CLOSE_INTERVAL_MS",
    schema: Millis(1_000, 7 * 86_400_000),
    default: "3600000",
    doc: "How often the job runs: storing the recaps of months and years closed in each account's zone (the day after the last is grace).",
  }),
  adminToken: setting({
    env: "ADMIN_TOKEN",
    schema: OperatorToken,
    default: "",
    doc: "When set (at least 32 characters), operator routes exist for this bearer token: GET /v1/admin/backup, which `tally backup` uses while the service runs, the bug-report routes under /v1/admin/reports, and the maintainers' page /admin/reports (signed in with this token).",
    secret: true,
    hint: OPERATOR_TOKEN_HINT,
  }),
  metricsEnabled: setting({
    env: "METRICS_ENABLED",
    schema: Bool,
    default: "false",
    doc: "true serves GET /metrics (Prometheus text format): requests, latencies, ingest rows, jobs, upstream calls.",
  }),
  metricsToken: setting({
    env: "METRICS_TOKEN",
    schema: OperatorToken,
    default: "",
    doc: "When set (at least 32 characters), GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`.",
    secret: true,
    hint: OPERATOR_TOKEN_HINT,
  }),
  operatorFailures: setting({
    env: "OPERATOR_FAILURES_PER_MINUTE",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "10",
    doc: "Wrong operator tokens (ADMIN_TOKEN or METRICS_TOKEN, as a bearer token on /v1/admin/* and /metrics or in the /admin/login form) one client address may send per minute; beyond, every attempt from it is answered 429 rate_limited until the minute ends. 0: no limit.",
  }),
  jobCachesPurgeEnabled: setting({
    env: "JOB_CACHES_PURGE_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off forgetting cached copies of other players' public data older than CACHE_MAX_AGE_HOURS (and unknown players after UNKNOWN_PLAYER_CACHE_MINUTES).",
  }),
  jobCachesPurgeIntervalMs: setting({
    env: "JOB_CACHES_PURGE_INTERVAL_MS",
    schema: Millis(1_000, 7 * 86_400_000),
    default: "600000",
    doc: "How often the job runs: forgetting cached copies of other players' public data older than CACHE_MAX_AGE_HOURS.",
  }),
  jobItemsRefreshEnabled: setting({
    env: "JOB_ITEMS_REFRESH_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off fetching the game's public item list (item names on the pages; the last stored copy stays in use).",
  }),
  jobItemsRefreshIntervalMs: setting({
    env: "JOB_ITEMS_REFRESH_INTERVAL_MS",
    schema: Millis(1_000, 7 * 86_400_000),
    default: "3600000",
    doc: "How often the item list job looks at the stored list: it fetches a new one when the stored one is older than ITEM_LIST_MAX_AGE_HOURS, so a failed fetch is tried again at the next run.",
  }),
  itemListMaxAgeHours: setting({
    env: "ITEM_LIST_MAX_AGE_HOURS",
    schema: T.Integer({ minimum: 1, maximum: 24 * 90 }),
    default: "24",
    doc: "Age at which the stored item list of the game (GET {GAME_API_URL}/v2/resources/skyblock/items, no key) is fetched again; until a fetch succeeds the last good copy is used.",
  }),
  itemNamesReloadMs: setting({
    env: "ITEM_NAMES_RELOAD_MS",
    schema: Millis(0, 86_400_000),
    default: "600000",
    doc: "How often an instance reloads the item names from the stored list into memory (another instance's job may have fetched a new one).",
  }),
  pageCookieTtlMs: setting({
    env: "PAGE_COOKIE_TTL_MS",
    schema: Millis(60_000, 86_400_000),
    default: "3600000",
    doc: "How long a browser keeps a player's own statistics page open after its page link (an HttpOnly cookie): a fixed end, never renewed; signing out ends it sooner.",
  }),
} as const;

export type SettingName = keyof typeof settings;
export type Config = { readonly [K in SettingName]: Static<(typeof settings)[K]["schema"]> };

export class ConfigError extends Error {
  constructor(readonly faults: string[]) {
    super(`invalid settings:\n  ${faults.join("\n  ")}`);
    this.name = "ConfigError";
  }
}

/** What a setting accepts, in words, derived from its schema. */
export function accepts(schema: TSchema): string {
  switch (schema[Kind]) {
    case "Integer":
      return `an integer from ${schema.minimum} to ${schema.maximum}`;
    case "Boolean":
      return "true or false";
    case "Array":
      return `a comma-separated list, each ${accepts(schema.items as TSchema)}`;
    case "Literal":
      return schema.const === "" ? "empty" : JSON.stringify(schema.const);
    case "Union":
      return (schema.anyOf as TSchema[]).map(accepts).join(" or ");
    case "String":
      if (schema.format === "http-url") return "an http:// or https:// URL";
      if (schema.pattern === "^postgres(ql)?://") return "a postgres:// URL";
      return `text of ${schema.minLength ?? 0} to ${schema.maxLength} characters`;
    default:
      return "a valid value";
  }
}

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function convert(schema: TSchema, raw: string): unknown {
  if (schema[Kind] === "Integer") return /^-?\d+$/.test(raw) ? Number(raw) : raw;
  if (schema[Kind] === "Boolean") return raw === "true" ? true : raw === "false" ? false : raw;
  if (schema[Kind] === "Array")
    return raw === "" ? [] : raw.split(",").map((item) => convert(schema.items as TSchema, item.trim()));
  return raw;
}

function check(schema: TSchema, value: unknown): boolean {
  if (schema[Kind] === "Union") return (schema.anyOf as TSchema[]).some((s) => check(s, value));
  if (schema[Kind] === "String" && schema.format === "http-url") {
    return typeof value === "string" && value.length <= schema.maxLength && isHttpUrl(value);
  }
  return Value.Check(schema, value);
}

/** Base URLs that paths are appended to: trimmed of trailing slashes here, once, so no caller does it. */
const BASE_URLS = [
  "gameApiUrl",
  "identityUrl",
  "namesUrl",
  "texturesUrl",
  "itemImagesUrl",
  "chatWebhookUrl",
] as const satisfies readonly SettingName[];
const trimSlashes = (url: string) => url.replace(/\/+$/, "");

/** Parses the environment into a Config, or throws ConfigError listing every bad setting. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const faults: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(settings) as [SettingName, Setting][]) {
    const raw = env[s.env] ?? s.default ?? "";
    const value = convert(s.schema, raw.trim());
    if (!check(s.schema, value)) {
      const shown = s.secret ? "(value hidden)" : JSON.stringify(raw);
      faults.push(`${s.env}=${shown}: expected ${accepts(s.schema)}${s.hint ? ` (${s.hint})` : ""}`);
      continue;
    }
    out[name] = value;
  }
  const retention = out as Pick<Config, "retentionOptionsDays" | "retentionDefaultDays">;
  if (
    retention.retentionOptionsDays &&
    retention.retentionDefaultDays &&
    !retention.retentionOptionsDays.includes(retention.retentionDefaultDays)
  ) {
    faults.push(
      `RETENTION_DEFAULT_DAYS=${retention.retentionDefaultDays}: expected one of RETENTION_OPTIONS_DAYS (${retention.retentionOptionsDays.join(", ")})`,
    );
  }
  const caches = out as Pick<Config, "cacheMaxAgeHours" | "profileCacheHours" | "nameCacheHours" | "assetCacheHours">;
  for (const [env, hours] of [
    ["PROFILE_CACHE_HOURS", caches.profileCacheHours],
    ["NAME_CACHE_HOURS", caches.nameCacheHours],
    ["ASSET_CACHE_HOURS", caches.assetCacheHours],
  ] as const) {
    if (caches.cacheMaxAgeHours && hours && hours > caches.cacheMaxAgeHours) {
      faults.push(`CACHE_MAX_AGE_HOURS=${caches.cacheMaxAgeHours}: expected at least ${env} (${hours})`);
    }
  }
  if (faults.length) throw new ConfigError(faults);
  const config = out as Config;
  const trimmed = Object.fromEntries(BASE_URLS.map((name) => [name, trimSlashes(config[name])]));
  return Object.freeze({
    ...config,
    ...trimmed,
    baseUrl: trimSlashes(config.baseUrl || `http://localhost:${config.port}`),
  });
}

/** The effective settings, secrets masked, one line each (for check-config). */
export function describeConfig(config: Config): string[] {
  return (Object.entries(settings) as [SettingName, Setting][]).map(([name, s]) => {
    const value = config[name];
    const shown =
      s.secret && value !== ""
        ? "******** (set)"
        : value === ""
          ? "(empty)"
          : Array.isArray(value)
            ? value.join(",")
            : String(value);
    return `${s.env.padEnd(24)} ${shown}`;
  });
}

/** Every setting with its default and doc (for --help). */
export function settingsHelp(): string[] {
  return (Object.values(settings) as Setting[]).map(
    (s) =>
      `  ${s.env.padEnd(24)} ${s.doc}\n  ${"".padEnd(24)} default: ${s.default === "" ? "(empty)" : s.default}; accepts ${accepts(s.schema)}`,
  );
}

/** The environment a test or child process needs, built from a partial config. */
export function envFor(overrides: Partial<Record<SettingName, string | number | boolean>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(overrides)) env[settings[name as SettingName].env] = String(value);
  return env;
}
