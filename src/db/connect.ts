// Opens the database the settings name: Postgres over DATABASE_URL (connect-postgres.ts), else the
// embedded PGlite in DATA_DIR (connect-embedded.ts).
import type { Config } from "../config.ts";
import type { Database } from "./database.ts";
import { connectPostgres } from "./connect-postgres.ts";
import { connectEmbedded, embeddedOptions, startEmbedded, type ConnectOptions } from "./connect-embedded.ts";

export async function connect(config: Config, options: ConnectOptions = {}): Promise<Database> {
  if (!config.databaseUrl) {
    const embedded = { ...embeddedOptions(config), ...options };
    return options.inBackground ? startEmbedded(config.dataDir, embedded) : connectEmbedded(config.dataDir, embedded);
  }
  const timeouts = {
    acquireTimeoutMs: config.databaseAcquireTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
  };
  return connectPostgres(config.databaseUrl, config.databasePoolMax, config.databasePrepare, timeouts);
}
