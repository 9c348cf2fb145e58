// Export: everything the service holds about the account (settings, device sessions and personal
// access tokens without their hashes, profiles, day rows, baselines, sessions, timeline, mirror, and
// what the caches of public data hold about the player, the boards' opt-ins and groups) as one JSON document, streamed a page at a
// time. Not one snapshot: each page is its own short read, so a slow download never
// holds a transaction open (on the embedded database that would stall every other request), and
// between pages the stream lets the event loop serve other requests (pageTurns).
import { isEmbedded, nextTurn, type Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import { requireAccount } from "../accounts/accounts.ts";
import { settingsDocument } from "../accounts/settings.ts";
import { sessionsForExport } from "../auth/sessions.ts";
import { tokensForExport } from "../tokens/tokens.ts";
import { camel, exportPage, exportSources } from "./export.query.ts";
import { EXPORT_FORMAT } from "./import-format.ts";
import { playerCaches, type CachePolicy } from "../profiles/caches.ts";

/** A page of one part of the document: its rows' JSON joined by commas, how many, the last row's order values. */
type Page = { text: string; rows: number; last: unknown[] | null };

/** One part of the document: a page of rows after the row whose order values are `after`. */
type Part = (db: Db, uuid: string, after: unknown[] | null, size: number) => Promise<Page>;

/** A page of rows named as the database names them (snake_case), written with the document's names, after an id. */
const byId =
  (read: (db: Db, uuid: string, afterId: string | null, size: number) => Promise<Record<string, unknown>[]>): Part =>
  async (db, uuid, after, size) => {
    const page = await read(db, uuid, after ? String(after[0]) : null, size);
    const last = page.at(-1);
    return {
      text: page
        .map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).map(([k, v]) => [camel(k), v]))))
        .join(","),
      rows: page.length,
      last: last ? [last.id] : null,
    };
  };

/**
 * Every part, in the order it is written: the device sessions (auth's) and personal access tokens
 * (tokens'), both without their hashes, then the statistics.
 */
const parts: [string, Part][] = [
  ["deviceSessions", byId(sessionsForExport)],
  ["accessTokens", byId(tokensForExport)],
  ...Object.entries(exportSources).map(([name, source]): [string, Part] => [
    name,
    (db, uuid, after, size) => exportPage(db, uuid, source, after, size),
  ]),
];

export type ExportDeps = {
  db: Db;
  clock: Clock;
  catalogue: Catalogue;
  config: { retentionOptionsDays: readonly number[]; exportPageRows: number } & CachePolicy;
  /** The boards' part: the account's opt-ins and groups (set by createApp; boards/portable.ts). */
  boardsPart?: (db: Db, uuid: string) => Promise<unknown>;
};

/**
 * How far above its RSS at the start an export on the embedded database lets the process grow
 * before it asks for a full garbage collection.
 */
const COLLECT_ABOVE_START = 64 * 2 ** 20;
/** The fewest pages between two of an export's collections, however RSS stands after one. */
const COLLECT_MIN_PAGES = 8;

/**
 * Between two pages of an export: waits for a turn of the event loop (nextTurn), so the requests
 * that arrived meanwhile are served (a health check waited 824 s behind an export, issue 40). On the
 * embedded database it also collects garbage once the export has made the process grow: each page
 * is copied out of the database's memory a few times (its answer, its text, its UTF-8), and the
 * collector, left alone, let an export of 1 000 000 rows hold 550 MiB more than idle. Collected on a
 * fixed count, it was either too often or too seldom: every 8 pages, a full collection (150-200 ms
 * in a process holding the bench's large account) was 40% of the JSON export's CPU; every 32 MiB of
 * JSON text, a 1 000 000-row export was reported 172 MiB above idle. By RSS, an export collects
 * when the process stands COLLECT_ABOVE_START above where it started, what the bound is about,
 * whatever its pages' size or format. What a collection cannot give back (the database's
 * WebAssembly memory grows for a large read and never shrinks) may keep it there: then it collects
 * every COLLECT_MIN_PAGES pages, as before, never every page. Answers the function to await between
 * pages, one per export.
 */
export function pageTurns(db: Db): () => Promise<void> {
  if (!isEmbedded(db)) return nextTurn;
  const start = process.memoryUsage.rss();
  let pages = 0;
  return () => {
    if (++pages >= COLLECT_MIN_PAGES && process.memoryUsage.rss() - start >= COLLECT_ABOVE_START) {
      Bun.gc(true);
      pages = 0;
    }
    return nextTurn();
  };
}

/**
 * Text pieces as a stream of UTF-8 chunks, each made only when the reader asks for it (one page
 * read at a time); a reader that goes away ends the pieces. `end` is called once, when the pieces
 * are done, fail or are cancelled.
 */
export function textStream(pieces: AsyncGenerator<string>, end: () => void = () => {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      let next: IteratorResult<string>;
      try {
        next = await pieces.next();
      } catch (error) {
        end();
        throw error;
      }
      if (next.done) {
        end();
        controller.close();
      } else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      end();
      await pieces.return(undefined);
    },
  });
}

/**
 * The export document as a stream of UTF-8 chunks, `pageRows` rows of a table a page. `end` is
 * called once the stream ends, fails or is cancelled.
 */
export async function exportStream(
  deps: ExportDeps,
  uuid: string,
  pageRows: number,
  end?: () => void,
): Promise<ReadableStream<Uint8Array>> {
  const account = await requireAccount(deps.db, uuid);
  const head = {
    service: "tally",
    format: EXPORT_FORMAT,
    exportedAt: new Date(deps.clock.now()).toISOString(),
    account: {
      uuid: account.uuid,
      name: account.name,
      createdAt: account.createdAt,
      lastUploadAt: account.lastUploadAt,
      modVersion: account.modVersion,
      settings: settingsDocument(account, deps),
    },
    /** Copies of this player's public game data kept for look-ups (profile pages, heads), and for how long. */
    publicDataCaches: await playerCaches(deps, uuid),
    ...(deps.boardsPart ? { boards: await deps.boardsPart(deps.db, uuid) } : {}),
  };
  async function* chunks() {
    const betweenPages = pageTurns(deps.db);
    yield JSON.stringify(head).slice(0, -1);
    for (const [name, page] of parts) {
      yield `,${JSON.stringify(name)}:[`;
      let after: unknown[] | null = null;
      let first = true;
      for (;;) {
        const { text, rows, last } = await page(deps.db, uuid, after, pageRows);
        if (rows === 0) break;
        yield (first ? "" : ",") + text;
        first = false;
        after = last;
        if (rows < pageRows) break;
        await betweenPages();
      }
      yield "]";
    }
    yield "}";
  }
  return textStream(chunks(), end);
}
