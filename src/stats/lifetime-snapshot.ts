// A large profile's lifetime figures kept in the database for the lifetime memo (issue 40; the table
// and why: lifetime-snapshot.table.ts). Loaded for exactly the account's state and the labels' item
// list; stored a moment after the read that made them, unless a write was heard since that read.
import type { FoldDeps } from "./fold.ts";
import { keepSnapshot, snapshotOf } from "./lifetime-snapshot.query.ts";

/** The catalogue's version and the item list's copy a set's labels are made with. */
const labelsOf = (deps: FoldDeps) => `${deps.catalogue.version}|${deps.items?.version ?? "none"}`;

type KeptSet<F> = { uuid: string; profileId: string; state: string; at: number; version: number; raw: readonly F[] };

/**
 * `minKeys`: sets of fewer figures are neither stored nor looked for (0: none). `later` runs work
 * beside the pages (the memo's); `current` says no write of the account was heard since `version`.
 */
export function snapshotKeeper<F>(opts: {
  minKeys: number;
  later: (work: () => Promise<unknown>) => void;
  current: (uuid: string, version: number) => boolean;
}) {
  /** Sets waiting to be stored, by profile: the newest replaces an older one still waiting. */
  const waiting = new Map<string, { deps: FoldDeps; set: KeptSet<F>; labels: string }>();
  return {
    /** The stored set for this state and these labels, with when it was read whole; null: none. */
    async load(deps: FoldDeps, uuid: string, profileId: string, state: string) {
      if (opts.minKeys === 0) return null;
      const copy = await snapshotOf(deps.db, uuid, profileId, state, labelsOf(deps));
      return copy && { raw: JSON.parse(copy.figures) as F[], readAt: copy.readAt };
    },
    /** Stores a set of at least minKeys figures a moment from now. */
    store(deps: FoldDeps, set: KeptSet<F>) {
      if (opts.minKeys === 0 || set.raw.length < opts.minKeys) return;
      const key = `${set.uuid}|${set.profileId}`;
      const already = waiting.has(key);
      waiting.set(key, { deps, set, labels: labelsOf(deps) });
      if (already) return;
      opts.later(async () => {
        const { deps, set, labels } = waiting.get(key)!;
        waiting.delete(key);
        if (!opts.current(set.uuid, set.version)) return;
        await keepSnapshot(deps.db, {
          uuid: set.uuid,
          profileId: set.profileId,
          state: set.state,
          labels,
          readAt: set.at,
          figures: JSON.stringify(set.raw),
        });
      });
    },
  };
}
