// The lifetime figures of a profile's every key, kept in process for the account's state (issue 40).
// A page, a list page and a card each start from every key's lifetime figure (a group's leading
// figures are chosen from them): one read of the profile's rollups, baselines and open days, linear
// in its keys. Pages that differ only in what else they show (period, range, group, list page) reuse
// that read while the account has not uploaded since, so a stranger asking for every page a large
// account has costs its lifetime read once per upload, not once per page. The state is the account's
// last upload and its profiles (an upload or an erasure changes it).
//
// Where this process makes every write (the embedded database: its folder is locked to one
// process), an upload, an import and an erasure say what they wrote (`wrote`, inside their
// transaction), and the set kept for an older state is brought to the new one by reading again only
// the keys written since: the first page after an upload of 20 keys reads 20 keys, not the
// profile's 10 000. A write this memo did not hear of (another instance on Postgres) leaves the
// state changed with nothing to account for it, and the whole set is read again. Retention, which
// moves a baseline's date (never a value) without an upload, says which keys it folded, for every
// profile of the account (EVERY_PROFILE).
//
// A set more than PAGE_LIFETIME_MEMO_TTL_MS past its last whole read is still answered (brought up
// to date as above when it can be) and read whole again a moment after the page, not before it: what no
// write told of (another instance's seal on Postgres) shows on a later page, and no page waits for
// the whole read the time to live asks for (issue 40: a 10 000-key profile's whole read is ~150 ms
// of the event loop).
//
// A profile of at least `snapshotMinKeys` keys also keeps its set in the database
// (lifetime-snapshot.table.ts), written a moment after the read that made it: a page that finds no
// set in memory (after a restart, after the memo forgot the account for others, on another
// instance) reads that one row for the same state instead of every key (10 000 keys: 12-15 ms
// instead of 150-180). Writes that change figures without moving the state (retention, an import,
// an erasure) delete it in their transaction; it ages like a set in memory (its whole read's time).
import type { Clock } from "../clock.ts";
import { distinctLabels } from "./labels.ts";
import { lifetimeFigures, profilesState, type FoldDeps } from "./fold.ts";
import { calendarMemo, type CalendarMemo } from "./calendar-memo.ts";
import { snapshotKeeper } from "./lifetime-snapshot.ts";

type Figure = Awaited<ReturnType<typeof lifetimeFigures>>[number];

/** Writes remembered per account, and accounts remembered: past them, a set is read whole. */
const WRITES_KEPT = 32;
const ACCOUNTS_KEPT = 10_000;
/** How long after the page that found a set past its time to live its whole read starts (a page takes 50-100 ms). */
const BESIDE_DELAY_MS = 500;
/** A write of more keys than this is remembered as "every key": its set is read whole (one statement beats a long list). */
const WRITE_KEYS_KEPT = 2_000;

/** What a write changed: by profile (or EVERY_PROFILE), its keys; null: anything of the account (an erasure, an import). */
export type Written = Map<string, Iterable<string>> | null;
/** A Written entry for these keys in whichever profiles of the account hold them (retention). */
export const EVERY_PROFILE = "*";

export type LifetimeMemo = {
  /** The profile's every key with its lifetime figure, as keysWithLifetime answers it (shared: never mutate it). */
  figures(deps: FoldDeps, uuid: string, profileId: string, state: string): Promise<readonly Figure[]>;
  /** The calendar's days of these profiles, kept the same way (calendar-memo.ts). */
  calendar: CalendarMemo;
  /** Told by a write of this process, inside its transaction, what it changes (see the file's head). */
  wrote(uuid: string, written: Written): void;
  /** Settles once the whole reads started beside pages (past the time to live) are done. */
  settled(): Promise<void>;
};

type Entry = {
  /** When the set was last read whole: its age bounds what changes without a write. */
  at: number;
  profile: string;
  state: string;
  /** The account's count of writes heard when the read began. */
  version: number;
  /** In key order, before labels two keys share are told apart. */
  raw: readonly Figure[];
  figures: readonly Figure[];
};

const byBytes = (a: Figure, b: Figure) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** `raw` with the `changed` keys' figures replaced by `fresh` (a key not in it is gone), in key order. */
function patched(raw: readonly Figure[], changed: Set<string>, fresh: Figure[]): Figure[] {
  const read = new Map(fresh.map((f) => [f.key, f]));
  const out: Figure[] = [];
  for (const f of raw) {
    if (!changed.has(f.key)) out.push(f);
    else if (read.has(f.key)) {
      out.push(read.get(f.key)!);
      read.delete(f.key);
    }
  }
  if (read.size === 0) return out;
  out.push(...read.values());
  return out.sort(byBytes);
}

/**
 * Keeps at most `maxFigures` figures in all (least recently used account first); a set found more
 * than `ttlMs` after its last whole read is read whole again after that page (refreshBeside);
 * concurrent asks for one set share one read. `maxFigures` 0:
 * nothing is kept. `incremental`: this process makes every write (see the file's head).
 */
export function lifetimeMemo(opts: {
  maxFigures: number;
  ttlMs: number;
  clock: Clock;
  incremental?: boolean;
  /** Tests: how long after a page its whole read beside it starts (default BESIDE_DELAY_MS). */
  besideDelayMs?: number;
  /** Sets of at least this many figures are kept in the database too (see the file's head); 0: none. */
  snapshotMinKeys?: number;
}): LifetimeMemo {
  const kept = new Map<string, Entry>();
  const reading = new Map<string, Promise<readonly Figure[]>>();
  let held = 0;
  const forget = (key: string) => {
    const entry = kept.get(key);
    if (!entry) return;
    held -= entry.raw.length;
    kept.delete(key);
  };
  // Per account, a count of the writes heard and the last few writes' keys.
  const writes = new Map<
    string,
    { version: number; log: { version: number; keys: Map<string, Set<string>> | null }[] }
  >();
  const versionOf = (uuid: string) => writes.get(uuid)?.version ?? 0;
  /**
   * The keys of `profileId` written since `version`, asked when the account's state moved; null: not
   * known (read the set whole), as when no write was heard at all (the state moved without one).
   */
  const writtenSince = (uuid: string, profileId: string, version: number): Set<string> | null => {
    const w = writes.get(uuid);
    if (!w || w.version === version || w.log.length === 0 || w.log[0]!.version > version + 1) return null;
    const keys = new Set<string>();
    for (const e of w.log) {
      if (e.version <= version) continue;
      if (e.keys === null) return null;
      for (const k of e.keys.get(profileId) ?? []) keys.add(k);
      for (const k of e.keys.get(EVERY_PROFILE) ?? []) keys.add(k);
    }
    return keys;
  };
  /** Whole reads started beside a page (refreshBeside), and those waiting their moment. */
  const beside = new Set<Promise<void>>();
  const scheduled = new Set<string>();
  // Large sets kept in the database too, written a moment after their read unless a write came since.
  const copies = snapshotKeeper<Figure>({
    minKeys: opts.maxFigures > 0 ? (opts.snapshotMinKeys ?? 0) : 0,
    later,
    current: (uuid, version) => versionOf(uuid) === version,
  });
  return {
    calendar: calendarMemo(opts),
    wrote(uuid, written) {
      const w = writes.get(uuid) ?? { version: 0, log: [] };
      writes.delete(uuid);
      w.version++;
      let keys: Map<string, Set<string>> | null = null;
      if (written !== null) {
        keys = new Map();
        let n = 0;
        for (const [profileId, list] of written) {
          const set = new Set(list);
          keys.set(profileId, set);
          n += set.size;
        }
        if (n > WRITE_KEYS_KEPT) keys = null;
      }
      w.log.push({ version: w.version, keys });
      if (w.log.length > WRITES_KEPT) w.log.shift();
      writes.set(uuid, w);
      if (writes.size > ACCOUNTS_KEPT) {
        // The account heard of longest ago: its kept sets can no longer be brought up to date.
        const [oldest] = writes.keys();
        writes.delete(oldest!);
        for (const [key, entry] of kept) if (entry.profile.startsWith(`${oldest}|`)) forget(key);
      }
    },
    async figures(deps, uuid, profileId, state) {
      const profile = `${uuid}|${profileId}`;
      // Labels name items by the item list's copy at hand: a page, a card and a badge read with the
      // same copy share one set, and a refreshed list is read afresh (issue 34).
      const key = `${profile}|items ${deps.items?.version ?? "none"}`;
      const entry = kept.get(key);
      // The same state with no write heard since its read (a write that moves no state, retention's, is heard too).
      if (entry?.state === state && !(opts.incremental && entry.version < versionOf(uuid))) {
        kept.delete(key);
        kept.set(key, entry);
        if (opts.clock.now() - entry.at >= opts.ttlMs) refreshBeside(deps, uuid, profileId, state, key);
        return entry.figures;
      }
      const figures = await read(deps, uuid, profileId, state, key, entry);
      const now = kept.get(key);
      if (now?.state === state && opts.clock.now() - now.at >= opts.ttlMs)
        refreshBeside(deps, uuid, profileId, state, key);
      return figures;
    },
    async settled() {
      while (beside.size > 0) await Promise.allSettled([...beside]);
    },
  };

  /**
   * The set of (profile, state), read whole, or from `base` and the keys written since when every
   * write since is known (see the file's head); kept unless too large. Concurrent asks share one read.
   */
  function read(
    deps: FoldDeps,
    uuid: string,
    profileId: string,
    state: string,
    key: string,
    base: Entry | undefined,
    whole = false,
    join = true,
  ): Promise<readonly Figure[]> {
    const pendingKey = `${key}|${state}${base ? "" : "|whole"}`;
    const pending = join ? reading.get(pendingKey) : undefined;
    // A read another request started runs through that request's handle (its transaction, its
    // statement timeout): failed there, it is read again through this one's, once and unshared.
    if (pending) return pending.catch(() => read(deps, uuid, profileId, state, key, base, whole, false));
    const started = (async () => {
      const now = opts.clock.now();
      const version = versionOf(uuid);
      const changed = opts.incremental && base ? writtenSince(uuid, profileId, base.version) : null;
      let raw: readonly Figure[];
      let at = now;
      let stored = false;
      if (base && changed && changed.size <= Math.max(64, base.raw.length / 4)) {
        raw =
          changed.size === 0
            ? base.raw
            : patched(base.raw, changed, await lifetimeFigures(deps, uuid, profileId, [...changed]));
        at = base.at;
      } else {
        const copy = whole ? null : await copies.load(deps, uuid, profileId, state);
        if (copy) {
          raw = copy.raw;
          at = copy.readAt;
          stored = true;
        } else raw = await lifetimeFigures(deps, uuid, profileId);
      }
      if (!stored && !(changed?.size === 0 && base)) copies.store(deps, { uuid, profileId, state, at, version, raw });
      const figures = Object.freeze(changed?.size === 0 && base ? base.figures : distinctLabels([...raw]));
      const current = kept.get(key);
      // A read that began later may have finished first: the newer set stays.
      if (raw.length <= opts.maxFigures && !(current && current.version > version)) {
        forget(key);
        kept.set(key, { at, profile: `${uuid}|${profileId}`, state, version, raw, figures });
        held += raw.length;
        for (const old of kept.keys()) {
          if (held <= opts.maxFigures) break;
          forget(old);
        }
      }
      return figures;
    })();
    if (!join) return started;
    reading.set(pendingKey, started);
    return started.finally(() => reading.delete(pendingKey));
  }

  /** Runs `work` a moment from now, not between the statements of the page that asked (refreshBeside). */
  function later(work: () => Promise<unknown>) {
    // Its timer never holds a stopping process open; a failure is left to the next page to try again
    // (a database closing at shutdown, say).
    const done = new Promise<void>((resolve) => setTimeout(resolve, opts.besideDelayMs ?? BESIDE_DELAY_MS).unref())
      .then(work)
      .then(
        () => {},
        () => {},
      )
      .finally(() => beside.delete(done));
    beside.add(done);
  }

  /**
   * Reads the set whole after the page that found it past its time to live (once at a time), a
   * moment later: on the embedded database statements run one at a time on this thread, so a read
   * started at once would sit between that page's own reads.
   */
  function refreshBeside(deps: FoldDeps, uuid: string, profileId: string, state: string, key: string) {
    const whole = `${key}|${state}|whole`;
    if (reading.has(whole) || scheduled.has(whole)) return;
    scheduled.add(whole);
    later(() => {
      scheduled.delete(whole);
      return read(deps, uuid, profileId, state, key, undefined, true);
    });
  }
}

/** The account state its lifetime figures are kept for: its last upload and its profiles (profilesState). */
export const lifetimeState = (account: { lastUploadAt: number | null }, profiles: { lastSeenAt: number }[]) =>
  `${account.lastUploadAt ?? ""}|${profilesState(profiles)}`;
