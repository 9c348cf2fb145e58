// Applies the embedded migrations in order, in one transaction under an advisory lock, so several
// instances starting together migrate once and a failed migration leaves nothing half-applied.
import type { Db } from "./database.ts";
import type { Clock } from "../clock.ts";
import { migrations as embedded } from "./migrations.gen.ts";
import * as q from "./migrate.query.ts";

export type Migration = { tag: string; sql: string };

export class MigrationError extends Error {
  override name = "MigrationError";
}

const hashOf = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");

/** Returns the tags it applied (empty when the database was already current). */
export async function migrate(db: Db, migrations: Migration[] = embedded): Promise<string[]> {
  return db.transaction(async (tx) => {
    await q.lockMigrations(tx);
    await q.ensureMigrationsTable(tx);
    const applied = new Map((await q.appliedMigrations(tx)).map((m) => [m.tag, m.hash]));
    const known = new Set(migrations.map((m) => m.tag));
    const unknown = [...applied.keys()].filter((tag) => !known.has(tag));
    if (unknown.length) {
      throw new MigrationError(
        `the database has migrations this binary does not know (${unknown.join(", ")}): it was migrated by a newer tally`,
      );
    }
    const done: string[] = [];
    for (const m of migrations) {
      const hash = hashOf(m.sql);
      const before = applied.get(m.tag);
      if (before === hash) continue;
      if (before)
        throw new MigrationError(
          `migration ${m.tag} changed after it was applied (hash ${before.slice(0, 12)} -> ${hash.slice(0, 12)})`,
        );
      for (const statement of m.sql.split("--> statement-breakpoint")) {
        if (statement.trim()) await q.applyStatement(tx, statement);
      }
      await q.recordMigration(tx, m.tag, hash);
      done.push(m.tag);
    }
    return done;
  });
}

/** Notes when this database first served (kept once; a restart does not move it). */
export function markCreated(db: Db, clock: Clock) {
  return q.recordCreated(db, clock.now());
}
