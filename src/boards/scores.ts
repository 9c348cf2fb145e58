// Keeping scores current (issue 35): after an upload commits, for an account that opted in, each
// board the upload's keys touch is folded again for that account over the windows the upload's
// days lie in (open ones only: an archived window is never recomputed) and all time, and its
// score rows and bucket counts move in one transaction. An upload of no board's keys reads
// nothing; one of an account that did not opt in reads one index row (its opt-ins).
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { UploadDone } from "../stats/ingest.ts";
import { keysWithLifetime, keysWithPrefix, windowFolds } from "../stats/board-reads.ts";
import { ACCOUNT_PROFILE } from "../wire/envelope.ts";
import { dayIn } from "../wire/day.ts";
import type { Board, Boards, Kind } from "./definitions.ts";
import { isOpen, parseWindow, windowOf, type BoardWindow } from "./windows.ts";
import { bucketOf, sortValueOf } from "./buckets.ts";
import * as q from "./boards.query.ts";
import { holdImplausible } from "./plausibility.ts";

/** `refreshMs`: BOARDS_REFRESH_MS (0: scores move in the upload's wake; else an upload only notes them). */
export type ScoreDeps = { db: Db; clock: Clock; catalogue: Catalogue; boards: Boards; refreshMs?: number };

/** Most keys of one pattern a board folds for one profile (a loot board of every item). */
const KEYS_PER_BOARD = 5_000;

/** The boards an account's opt-ins put it on. */
export const boardsOptedIn = (boards: Boards, groups: string[]) =>
  groups.includes("*") ? boards.list : boards.list.filter((b) => groups.includes(b.group));

/** Folds the keys' figures of one board into its figure (count and gauge: added up; max, min: the best). */
export function combineFigures(kind: Kind, values: bigint[]): bigint | null {
  if (values.length === 0) return null;
  if (kind === "max") return values.reduce((a, b) => (b > a ? b : a));
  if (kind === "min") return values.reduce((a, b) => (b < a ? b : a));
  return values.reduce((a, b) => a + b, 0n);
}

/** Whether a figure is ranked: a count or gauge board ranks only what is above zero. */
export const ranked = (kind: Kind, value: bigint | null): value is bigint =>
  value !== null && (kind === "max" || kind === "min" || value > 0n);

/** The key prefix of a spec before its first placeholder (the whole key when it has none). */
const prefixOf = (spec: string) => {
  const i = spec.indexOf("{");
  return i < 0 ? null : spec.slice(0, i);
};

/** The keys of a board one profile holds. */
async function boardKeys(db: Db, uuid: string, profileId: string, board: Board): Promise<string[]> {
  const keys = new Set<string>();
  for (const spec of board.keys) {
    const prefix = prefixOf(spec);
    if (prefix === null) keys.add(spec);
    else
      for (const key of await keysWithPrefix(db, uuid, profileId, prefix, KEYS_PER_BOARD))
        if (board.matches(key)) keys.add(key);
  }
  return [...keys];
}

type Figure = { board: Board; window: BoardWindow; profileId: string; value: bigint | null };
/** A figure with the time it was reached (its upload's) and its profile's cute name. */
type Reached = Figure & { at: number; cuteName: string | null };

/**
 * Each touched board's figure for the profile, in each window given: one read of the boards' keys
 * over every calendar window, and one of their lifetime figures.
 */
async function figures(deps: ScoreDeps, uuid: string, profileId: string, touched: Map<Board, BoardWindow[]>) {
  const keysOf = new Map<Board, string[]>();
  for (const board of touched.keys()) keysOf.set(board, await boardKeys(deps.db, uuid, profileId, board));
  const calendar = new Map<string, BoardWindow>();
  const calendarKeys = new Set<string>();
  const lifetimeKeys = new Set<string>();
  for (const [board, windows] of touched)
    for (const w of windows) {
      if (w.kind === "all") for (const k of keysOf.get(board)!) lifetimeKeys.add(k);
      else {
        calendar.set(w.id, w);
        for (const k of keysOf.get(board)!) calendarKeys.add(k);
      }
    }
  const folds = await windowFolds(
    deps.db,
    uuid,
    profileId,
    [...calendar.values()].map((w) => ({ name: w.id, from: w.from!, to: w.to! })),
    [...calendarKeys],
  );
  const byWindow = new Map<string, Map<string, bigint>>();
  for (const f of folds) {
    const m = byWindow.get(f.window) ?? new Map<string, bigint>();
    byWindow.set(f.window, m.set(f.key, f.value));
  }
  const lifetimes =
    lifetimeKeys.size > 0
      ? new Map(
          (await keysWithLifetime(deps, uuid, profileId, [...lifetimeKeys])).map(
            (k) => [k.key, BigInt(k.lifetime.value)] as const,
          ),
        )
      : new Map<string, bigint>();
  const out: Figure[] = [];
  for (const [board, windows] of touched)
    for (const w of windows) {
      const of = w.kind === "all" ? lifetimes : (byWindow.get(w.id) ?? new Map<string, bigint>());
      const values = keysOf
        .get(board)!
        .filter((k) => of.has(k))
        .map((k) => of.get(k)!);
      out.push({ board, window: w, profileId, value: combineFigures(board.kind, values) });
    }
  return out;
}

/** The boards and windows an upload's rows touch, by the profile whose score they move. */
function touchedBy(upload: UploadDone, boards: Board[], today: string) {
  const byProfile = new Map<string, Map<Board, Map<string, BoardWindow>>>();
  for (const row of upload.rows) {
    for (const board of boards) {
      if (!board.matches(row.key)) continue;
      // A board ranks a profile, or the account where its keys are account-scoped.
      const wanted = board.scope === "account" ? ACCOUNT_PROFILE : upload.profile.id;
      if (row.profileId !== wanted || (board.scope === "profile" && row.profileId === ACCOUNT_PROFILE)) continue;
      const perBoard = byProfile.get(wanted) ?? new Map<Board, Map<string, BoardWindow>>();
      byProfile.set(wanted, perBoard);
      const windows = perBoard.get(board) ?? new Map<string, BoardWindow>();
      perBoard.set(board, windows);
      for (const kind of board.windows) {
        if (kind !== "all" && row.day === null) continue; // a baseline moves only the lifetime
        const w = windowOf(kind, row.day ?? today);
        if (isOpen(w, today)) windows.set(w.id, w);
      }
    }
  }
  return byProfile;
}

/**
 * The ingest's afterUpload. With BOARDS_REFRESH_MS > 0 the upload only notes which scores it may
 * have moved (one statement, which writes nothing for an account on no board); boards.refresh
 * moves them. With 0, they move here, in the upload's wake.
 */
export async function scoresAfterUpload(deps: ScoreDeps, upload: UploadDone) {
  // Nothing of the upload is on any board: no read at all.
  if (!upload.rows.some((r) => deps.boards.list.some((b) => b.matches(r.key)))) return;
  if ((deps.refreshMs ?? 0) > 0) return noteUpload(deps, upload);
  return scoresNow(deps, upload);
}

/** Notes the upload's touched scores (every board its keys are on; the refresh keeps the opted-in ones). */
async function noteUpload(deps: ScoreDeps, upload: UploadDone) {
  const now = deps.clock.now();
  const list: q.Pending[] = [];
  for (const [profileId, perBoard] of touchedBy(upload, deps.boards.list, dayIn(upload.zone, now)))
    for (const [board, windows] of perBoard)
      for (const w of windows.keys())
        list.push({
          profileId,
          board: board.id,
          window: w,
          cuteName: profileId === ACCOUNT_PROFILE ? null : upload.profile.cuteName,
          at: now,
        });
  await q.notePending(deps.db, upload.uuid, list);
}

/**
 * One refresh: the noted scores of every account with some moved, `batch` accounts a read, each
 * account in its own transaction. An account whose refresh fails keeps its noted rows for the next
 * run and does not hold up the others (the run goes on past it; the job logs the count).
 */
export async function refreshBoards(deps: ScoreDeps, opts: { signal?: AbortSignal; batch?: number } = {}) {
  const counts = { accounts: 0, figures: 0, failed: 0 };
  const batch = opts.batch ?? 200;
  let after = "";
  for (;;) {
    const uuids = await q.pendingAccounts(deps.db, batch, after);
    for (const uuid of uuids) {
      if (opts.signal?.aborted) return counts;
      try {
        counts.figures += await refreshAccount(deps, uuid);
        counts.accounts++;
      } catch {
        counts.failed++;
      }
    }
    if (uuids.length < batch) return counts;
    after = uuids.at(-1)!;
  }
}

async function refreshAccount(deps: ScoreDeps, uuid: string): Promise<number> {
  return deps.db.transaction(async (tx) => {
    await q.lockAccountScores(tx, uuid);
    const pending = await q.takePending(tx, uuid);
    const { groups, excluded } = await q.optinsAndExclusion(tx, uuid);
    if (groups.length === 0 || excluded) return 0;
    const on = new Set(boardsOptedIn(deps.boards, groups).map((b) => b.id));
    const byProfile = new Map<string, Map<Board, BoardWindow[]>>();
    const noted = new Map<string, q.Pending>();
    for (const p of pending) {
      const board = deps.boards.byId.get(p.board);
      const [kind, at] = p.window.split(":") as [string, string | undefined];
      const w = kind === "all" ? windowOf("all", "2000-01-01") : parseWindow(kind as "week" | "month", at ?? "");
      if (!board || !on.has(board.id) || !w || !board.windows.includes(w.kind)) continue;
      const perBoard = byProfile.get(p.profileId) ?? new Map<Board, BoardWindow[]>();
      byProfile.set(p.profileId, perBoard.set(board, [...(perBoard.get(board) ?? []), w]));
      noted.set(`${p.profileId}/${p.board}/${w.id}`, p);
    }
    const all: Reached[] = [];
    for (const [profileId, windows] of byProfile)
      for (const f of await figures({ ...deps, db: tx }, uuid, profileId, windows)) {
        const p = noted.get(`${profileId}/${f.board.id}/${f.window.id}`)!;
        all.push({ ...f, at: p.at, cuteName: p.cuteName });
      }
    await writeFigures(tx, uuid, all, deps.clock.now());
    return all.length;
  });
}

/** Moves the upload's scores now (BOARDS_REFRESH_MS=0). */
async function scoresNow(deps: ScoreDeps, upload: UploadDone) {
  const now = deps.clock.now();
  const touches = async (db: Db) => {
    const { groups, excluded } = await q.optinsAndExclusion(db, upload.uuid);
    if (groups.length === 0 || excluded) return new Map() as ReturnType<typeof touchedBy>;
    return touchedBy(upload, boardsOptedIn(deps.boards, groups), dayIn(upload.zone, now));
  };
  // A first look without a lock: most uploads are of accounts on no board.
  if ((await touches(deps.db)).size === 0) return;
  await deps.db.transaction(async (tx) => {
    await q.lockAccountScores(tx, upload.uuid);
    // Read again under the lock: an opt-out, exclusion or erasure that committed while this
    // waited must not see its scores written back.
    const touched = await touches(tx);
    const all: Reached[] = [];
    for (const [profileId, perBoard] of touched) {
      const windows = new Map([...perBoard].map(([b, ws]) => [b, [...ws.values()]]));
      const cuteName = profileId === ACCOUNT_PROFILE ? null : upload.profile.cuteName;
      for (const f of await figures({ ...deps, db: tx }, upload.uuid, profileId, windows))
        all.push({ ...f, at: now, cuteName });
    }
    await writeFigures(tx, upload.uuid, all, now);
  });
}

/** Moves score rows and bucket counts to the figures: new, changed, or gone. */
async function writeFigures(tx: Db, uuid: string, figured: Reached[], now: number) {
  if (figured.length === 0) return;
  const all = await holdImplausible(tx, uuid, figured, now);
  const stored = await q.scoresOf(
    tx,
    uuid,
    [...new Set(all.map((f) => f.profileId))],
    [...new Set(all.map((f) => f.board.id))],
    [...new Set(all.map((f) => f.window.id))],
  );
  const old = new Map(stored.map((s) => [`${s.board}/${s.window}/${s.profileId}`, s]));
  const upserts: q.ScoreWrite[] = [];
  const gone: { board: string; window: string; profileId: string }[] = [];
  const deltas: q.BucketDelta[] = [];
  for (const f of all) {
    const before = old.get(`${f.board.id}/${f.window.id}/${f.profileId}`);
    const target = { board: f.board.id, window: f.window.id, profileId: f.profileId };
    if (!ranked(f.board.kind, f.value)) {
      if (before) {
        gone.push(target);
        deltas.push({ ...target, bucket: before.bucket, reachedAt: before.reachedAt, n: -1 });
      }
      continue;
    }
    if (before && BigInt(before.value) === f.value) continue;
    const sortValue = sortValueOf(f.value, f.board.higherBetter);
    const bucket = bucketOf(sortValue);
    upserts.push({
      ...target,
      uuid,
      value: f.value.toString(),
      sortValue: sortValue.toString(),
      bucket,
      reachedAt: f.at,
      cuteName: f.cuteName,
    });
    if (before) deltas.push({ ...target, bucket: before.bucket, reachedAt: before.reachedAt, n: -1 });
    deltas.push({ ...target, bucket, reachedAt: f.at, n: 1 });
  }
  await q.deleteScores(tx, uuid, gone);
  await q.upsertScores(tx, upserts);
  await q.addToBuckets(tx, deltas);
}
