// Settings: Storage: Postgres or the embedded database.
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { setting, Millis, Bool } from "./setting.ts";

/** The embedded database's shared_buffers (Postgres's own default of 128 MB is touched whole at start). */
export const EMBEDDED_SHARED_BUFFERS_MB = 8;

export const databaseSettings = {
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
} as const;
