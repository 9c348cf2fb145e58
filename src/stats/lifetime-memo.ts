// The lifetime figures of a profile's every key, kept in process for the account's state (issue 40).
// A page, a list page and a card each start from every key's lifetime figure (a group's leading
// figures are chosen from them): one read of the profile's rollups, baselines and open days, linear
// in its keys. Pages that differ only in what else they show (period, range, group, list page) reuse
// that read while the account has not uploaded since, so a stranger asking for every page a large
// account has costs its lifetime read once per upload, not once per page. The state is the account's
// last upload and its profiles (an upload or an erasure changes it); what changes without an upload
// (a retention seal moving a baseline's date) shows within the page cache's own time to live.
import type { Clock } from "../clock.ts";
import { keysWithLifetime, profilesState, type FoldDeps } from "./fold.ts";
import { activeDays } from "./periods.ts";

type Figures = Awaited<ReturnType<typeof keysWithLifetime>>;
type ActiveDay = Awaited<ReturnType<typeof activeDays>>[number];

/** Calendars kept at most (each a year of days at most: a few KiB). */
const CALENDARS_KEPT = 1_000;

export type LifetimeMemo = {
  /** The profile's every key with its lifetime figure, as keysWithLifetime answers it (shared: never mutate it). */
  figures(deps: FoldDeps, uuid: string, profileId: string, state: string): Promise<readonly Figures[number][]>;
  /**
   * The calendar's days in [from, to] of these profiles, as activeDays answers them, kept the same
   * way: its open days are counted from their rows, linear in the keys recorded on them (10 000 keys
   * on two open days: 40-110 ms on the embedded database), once per account state, not per page.
   */
  calendar(
    deps: FoldDeps,
    uuid: string,
    profileIds: string[],
    span: { from: string; to: string },
    state: string,
  ): Promise<readonly ActiveDay[]>;
};

/**
 * Keeps at most `maxFigures` figures in all (least recently used account first), each set at most
 * `ttlMs`; concurrent asks for one set share one read. `maxFigures` 0: nothing is kept.
 */
export function lifetimeMemo(opts: { maxFigures: number; ttlMs: number; clock: Clock }): LifetimeMemo {
  const kept = new Map<string, { at: number; profile: string; figures: readonly Figures[number][] }>();
  const reading = new Map<string, Promise<readonly Figures[number][]>>();
  /** The key a profile's figures are kept under (its account's state when read): one set a profile. */
  const current = new Map<string, string>();
  let held = 0;
  const forget = (key: string) => {
    const entry = kept.get(key);
    if (!entry) return;
    held -= entry.figures.length;
    kept.delete(key);
    if (current.get(entry.profile) === key) current.delete(entry.profile);
  };
  const calendars = new Map<string, { at: number; days: readonly ActiveDay[] }>();
  const countingDays = new Map<string, Promise<readonly ActiveDay[]>>();
  return {
    async calendar(deps, uuid, profileIds, span, state) {
      const key = `${uuid}|${profileIds.join(",")}|${span.from}|${span.to}|${state}`;
      const entry = calendars.get(key);
      calendars.delete(key);
      if (entry && opts.clock.now() - entry.at < opts.ttlMs) {
        calendars.set(key, entry);
        return entry.days;
      }
      const pending = countingDays.get(key);
      if (pending) return pending;
      const read = activeDays(deps, uuid, profileIds, span.from, span.to).then((days) => Object.freeze(days));
      countingDays.set(key, read);
      try {
        const days = await read;
        if (opts.maxFigures > 0) {
          // One calendar an account: an older state's, or another span's, goes.
          for (const old of calendars.keys()) if (old.startsWith(`${uuid}|`)) calendars.delete(old);
          if (calendars.size >= CALENDARS_KEPT) calendars.delete(calendars.keys().next().value!);
          calendars.set(key, { at: opts.clock.now(), days });
        }
        return days;
      } finally {
        countingDays.delete(key);
      }
    },
    async figures(deps, uuid, profileId, state) {
      const profile = `${uuid}|${profileId}`;
      // Labels name items by the item list's copy at hand: a page, a card and a badge read with the
      // same copy share one set, and a refreshed list is read afresh (issue 34).
      const key = `${profile}|${state}|items ${deps.items?.version ?? "none"}`;
      const entry = kept.get(key);
      if (entry && opts.clock.now() - entry.at < opts.ttlMs) {
        kept.delete(key);
        kept.set(key, entry);
        return entry.figures;
      }
      forget(key);
      const pending = reading.get(key);
      if (pending) return pending;
      const read = keysWithLifetime(deps, uuid, profileId).then((list) => Object.freeze(list));
      reading.set(key, read);
      try {
        const figures = await read;
        if (figures.length <= opts.maxFigures) {
          const before = current.get(profile);
          if (before !== undefined) forget(before);
          kept.set(key, { at: opts.clock.now(), profile, figures });
          current.set(profile, key);
          held += figures.length;
          for (const old of kept.keys()) {
            if (held <= opts.maxFigures) break;
            forget(old);
          }
        }
        return figures;
      } finally {
        reading.delete(key);
      }
    },
  };
}

/** The account state its lifetime figures are kept for: its last upload and its profiles (profilesState). */
export const lifetimeState = (account: { lastUploadAt: number | null }, profiles: { lastSeenAt: number }[]) =>
  `${account.lastUploadAt ?? ""}|${profilesState(profiles)}`;
