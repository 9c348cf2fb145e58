// One pass of an import (import.ts) over the export file, streamed (fileEvents): its head fields read
// and checked (format, account), every row checked as ingest checks an upload (import-checks.ts),
// and, in the apply pass, each section's rows handed on in batches.
import type { Clock } from "../clock.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { nextTurn } from "../db/database.ts";
import { fileEvents } from "./import-parse.ts";
import { EXPORT_FORMAT, OLDEST_IMPORT_FORMAT, SECTIONS, type Section } from "./import-format.ts";
import { rowChecks } from "./import-checks.ts";

/** What a pass reads of the import's dependencies. */
type PassDeps = {
  clock: Clock;
  catalogue: Catalogue;
  config: Pick<
    Config,
    | "importMaxBytes"
    | "importBatchRows"
    | "statsMaxKeysPerProfile"
    | "statsMaxProfilesPerAccount"
    | "privacyUnknownWords"
  >;
};

export type ImportOptions = {
  /** The file is another account's and the player (or operator) confirmed taking it. */
  confirmOtherAccount?: boolean;
  /** A plain (not gzip) file is accepted too (the operator's command). */
  plainAllowed?: boolean;
  /** The account's own file's board opt-ins are taken too (the player asked: ?boards=opt-in). */
  takeBoardOptIns?: boolean;
  /** Called after each batch written: rows of the file read so far. */
  progress?: (rows: number) => void;
};

/** Head fields of an export an import reads past (instance facts, not statistics). */
const HEAD_FIELDS = new Set(["service", "format", "exportedAt", "account", "publicDataCaches", "boards"]);
/**
 * Sections of the export an import reads past: device sessions and personal access tokens are this
 * instance's credentials (their secrets are never exported; a token is made again on the new instance).
 */
const IGNORED_SECTIONS = new Set(["deviceSessions", "accessTokens"]);
const isSection = (name: string) => (SECTIONS as string[]).includes(name) || IGNORED_SECTIONS.has(name);
/**
 * Rows read between two full garbage collections, in both passes. Each row leaves garbage (its
 * text, its parsed value, its checked copy) that the collector, left alone, let pile up: the bench's
 * large account (92 400 rows) peaked 130-200 MiB above idle, most of it in the check pass; collected
 * every 10 000 rows, 49 MiB, for about 0.5 s more CPU (18 collections).
 */
const COLLECT_EVERY_ROWS = 10_000;
/** Largest row or head field, in characters (a session of 400 amounts is about 30 000). */
const MAX_VALUE_CHARS = 256 * 1024;

export type Head = { format: number | null; account: string | null; zone: string | null; boards?: unknown };

function checkHead(head: Head, uuid: string, opts: ImportOptions) {
  if (head.format === null || head.format < OLDEST_IMPORT_FORMAT)
    throw new ApiError(
      "format_unsupported",
      `the file has no format ${OLDEST_IMPORT_FORMAT} or later before its rows: export it again from a tally that writes format ${OLDEST_IMPORT_FORMAT}`,
      "/format",
    );
  if (head.format > EXPORT_FORMAT)
    throw new ApiError(
      "format_too_new",
      `the file is of format ${head.format}; this tally takes formats ${OLDEST_IMPORT_FORMAT} to ${EXPORT_FORMAT}: update it first`,
      "/format",
    );
  if (head.account === null)
    throw new ApiError("invalid_body", "the file names no account before its rows", "/account");
  if (head.account !== uuid && !opts.confirmOtherAccount)
    throw new ApiError(
      "import_other_account",
      "the file is another account's export; send it again with ?confirm=other-account to take its statistics into this account",
      "/account/uuid",
    );
}

/**
 * One pass over the file: every event checked; with `write`, each section's rows handed to it in
 * batches. Answers the file's head.
 */
export async function walk(
  deps: PassDeps,
  uuid: string,
  source: ReadableStream<Uint8Array>,
  opts: ImportOptions,
  write?: (section: Section, batch: unknown[]) => Promise<void>,
): Promise<Head> {
  const head: Head = { format: null, account: null, zone: null };
  const checks = rowChecks(deps.catalogue, deps.clock.now(), {
    maxKeysPerProfile: deps.config.statsMaxKeysPerProfile,
    maxProfiles: deps.config.statsMaxProfilesPerAccount,
    unknownWords: deps.config.privacyUnknownWords,
  });
  const limits = { maxBytes: deps.config.importMaxBytes, maxValueChars: MAX_VALUE_CHARS, maxDepth: 8 };
  let batch: unknown[] = [];
  let batchOf: Section | null = null;
  let headChecked = false;
  let read = 0;
  // One batch is written while the next is read and checked: on Postgres the database works in its
  // own process meanwhile (the large account's second pass: 2.5 s, of which 0.6-1 s reading). At
  // most one write is in flight, so batches are written in the file's order, one after the other.
  let writing: Promise<void> | null = null;
  const flush = async () => {
    if (write && batchOf && batch.length) {
      if (writing) await writing;
      writing = write(batchOf, batch);
      // Awaited before the next batch or at the end; a fault meanwhile is not left unhandled.
      writing.catch(() => {});
    }
    batch = [];
    if (write) {
      opts.progress?.(read);
      await nextTurn();
    }
  };
  for await (const event of fileEvents(source, limits, isSection, opts.plainAllowed)) {
    if (event.kind === "field") {
      if (!HEAD_FIELDS.has(event.name))
        throw new ApiError("invalid_body", `unknown field ${JSON.stringify(event.name)}`, `/${event.name}`);
      if (event.name === "service" && event.value !== "tally")
        throw new ApiError("invalid_body", "the file is not a tally export", "/service");
      if (event.name === "boards") head.boards = event.value;
      if (event.name === "format") head.format = Number.isSafeInteger(event.value) ? (event.value as number) : -1;
      if (event.name === "account") {
        const account = event.value as { uuid?: unknown; settings?: { zone?: unknown } } | null;
        head.account = typeof account?.uuid === "string" && /^[0-9a-f]{32}$/.test(account.uuid) ? account.uuid : null;
        head.zone = typeof account?.settings?.zone === "string" ? account.settings.zone.slice(0, 64) : null;
      }
      continue;
    }
    if (event.kind === "end") break;
    if (!headChecked) {
      checkHead(head, uuid, opts);
      headChecked = true;
    }
    if (IGNORED_SECTIONS.has(event.section)) continue;
    const section = event.section as Section;
    const row = checks.check(section, event.index, event.value);
    if (++read % COLLECT_EVERY_ROWS === 0) Bun.gc(true);
    if (!write) continue;
    if (batchOf !== section) await flush();
    batchOf = section;
    batch.push(row);
    if (batch.length >= deps.config.importBatchRows) await flush();
  }
  if (!headChecked) checkHead(head, uuid, opts);
  await flush();
  if (writing) await writing;
  return head;
}
