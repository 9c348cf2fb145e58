// Import (issue 37): an export file of format 2 taken into the signed-in account, by
// POST /v1/stats/import and by `tally import`. Two streamed passes over the file (import-pass.ts):
//   1. check: every row checked as ingest checks an upload (import-checks.ts); nothing is written,
//      no transaction is open, so a hostile or broken file costs the database nothing;
//   2. apply: one transaction under the account's stats lock, the rows written batch by batch by
//      their merge rules (import.query.ts), then the days older than the seal horizon collapsed and
//      those older than the account's retention folded into its baseline (seal.query.ts, as the jobs
//      do), and the derived rows rebuilt. Any fault rolls all of it back: nothing is applied unless
//      everything is (docs/decisions.md "Import: one transaction").
import type { Static } from "@sinclair/typebox";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Log } from "../log.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { isOutOfRange } from "../db/errors.ts";
import { markUpload, requireAccount, type Account } from "../accounts/accounts.ts";
import { forgetSnapshots } from "./lifetime-snapshot.query.ts";
import { addDays, dayIn } from "../wire/day.ts";
import { walk, type ImportOptions } from "./import-pass.ts";
import type { ImportRow, Section } from "./import-format.ts";
import { applyBatch, emptyTally, RECENT_DAYS, type Tally } from "./import-apply.ts";
import type { UploadDone } from "./ingest.ts";
import { listProfiles } from "./fold.ts";
import { markFor, sealedBefore } from "./horizons.ts";
import { collapseDays, keysBefore, sealIntoBaseline } from "./seal.query.ts";
import { lockAccountStats, readMark, type AccountMark } from "./counters.query.ts";
import { SAFE_LIMIT } from "../wire/safe-integer.ts";
import { profileCount, profileOverKeyCap, rebuildDerived, sealedDays } from "./import.query.ts";
import type { ImportAnswer } from "./import.schema.ts";

export type ImportDeps = {
  db: Db;
  clock: Clock;
  log: Log;
  catalogue: Catalogue;
  config: Pick<
    Config,
    | "importMaxBytes"
    | "importBatchRows"
    | "maxJsonDepth"
    | "privacyUnknownWords"
    | "statsMaxKeysPerProfile"
    | "statsMaxProfilesPerAccount"
    | "retentionOptionsDays"
  >;
  /**
   * Called once the import has committed, once per profile whose counters it wrote, as ingest
   * calls it after an upload: the boards keep their scores from it (set by createApp and the
   * import command; a fault in it is logged, never the import's).
   */
  afterUpload?: (upload: UploadDone) => Promise<void>;
  /**
   * The boards' part of the file (its `boards` head field; set by createApp and the import
   * command, boards/portable.ts): checked in the first pass, taken in the import's transaction when
   * the file is the account's own. Absent: the field is read past.
   */
  boardsPart?: {
    check: (value: unknown) => unknown;
    apply: (
      tx: Db,
      uuid: string,
      part: unknown,
      now: number,
      optIns: boolean,
    ) => Promise<{ code: string; message: string; key?: string }[]>;
  };
  /** Told, inside the import's transaction, that anything of the account may change (the pages' memo of lifetime figures). */
  wrote?: (uuid: string, written: null) => void;
};

type Answer = Static<typeof ImportAnswer>;

/** The boards' warnings are added while the answer holds fewer (its own cap, import-apply.ts's, is 100). */
const MAX_BOARD_WARNINGS = 99;

/** Days older than the seal horizon collapsed, then days older than the account's retention folded into its baseline. */
async function sealAndRetain(tx: Db, uuid: string, account: Account, now: number) {
  const horizon = sealedBefore(account.zone, now);
  const retainFrom = addDays(dayIn(account.zone, now), -account.retentionDays);
  const collapse = await keysBefore(tx, uuid, horizon, true);
  const collapsed = collapse.length ? await collapseDays(tx, uuid, collapse, horizon) : 0;
  const retain = await keysBefore(tx, uuid, retainFrom, false);
  const retained = retain.length ? await sealIntoBaseline(tx, uuid, retain, retainFrom, addDays(retainFrom, -1)) : 0;
  return { horizon, retainFrom, folded: { collapsedRows: collapsed, retainedRows: retained } };
}

const tooLarge = () =>
  new ApiError(
    "total_out_of_range",
    "with this file a key's stored values would add up past the safe integer range; nothing of it was stored",
  );

const outOfSafeRange = (mark: AccountMark | null) =>
  mark !== null &&
  ((mark.posBound !== null && BigInt(mark.posBound) > BigInt(SAFE_LIMIT)) ||
    (mark.negBound !== null && BigInt(mark.negBound) < -BigInt(SAFE_LIMIT)));

/** Takes the file `open()` streams into the account `uuid`; `open` is called once per pass. */
export async function importFile(
  deps: ImportDeps,
  uuid: string,
  open: () => ReadableStream<Uint8Array>,
  opts: ImportOptions = {},
): Promise<Answer> {
  const before = await requireAccount(deps.db, uuid);
  const head = await walk(deps, uuid, open(), opts);
  // The boards' part is checked with the rows, before anything is written.
  const boards = head.boards !== undefined && deps.boardsPart ? deps.boardsPart.check(head.boards) : undefined;
  const now = deps.clock.now();
  let tally: Tally | undefined;
  let answer: Answer;
  try {
    answer = await deps.db.transaction(async (tx) => {
      await lockAccountStats(tx, uuid);
      deps.wrote?.(uuid, null);
      await forgetSnapshots(tx, uuid);
      const account = await requireAccount(tx, uuid);
      tally = emptyTally(account, await sealedDays(tx, uuid), addDays(dayIn(account.zone, now), -RECENT_DAYS));
      const written = tally;
      await walk(deps, uuid, open(), opts, (section, batch) =>
        applyBatch(tx, deps, uuid, written, section, batch as ImportRow<Section>[], now),
      );
      const lifecycle = await sealAndRetain(tx, uuid, account, now);
      await rebuildDerived(tx, uuid, markFor(account.zone, now));
      // As ingest refuses an upload: no count key's positive or negative parts over its stored days
      // may leave the safe range (the rebuilt mark's bounds are the largest of them).
      if (outOfSafeRange(await readMark(tx, uuid))) throw tooLarge();
      const over = await profileOverKeyCap(tx, uuid, deps.config.statsMaxKeysPerProfile);
      if (over)
        throw new ApiError(
          "too_many_keys",
          `with this file profile ${over} would hold more than ${deps.config.statsMaxKeysPerProfile} distinct keys (STATS_MAX_KEYS_PER_PROFILE); nothing of it was stored`,
        );
      if ((await profileCount(tx, uuid)) > deps.config.statsMaxProfilesPerAccount)
        throw new ApiError(
          "too_many_profiles",
          `with this file the account would hold more than ${deps.config.statsMaxProfilesPerAccount} profiles (STATS_MAX_PROFILES_PER_ACCOUNT); nothing of it was stored`,
        );
      // What was written is the account's newest data: pages and their memo of lifetime figures,
      // kept for the account's last upload, read again (a file that changed nothing leaves it).
      const changed = Object.values(tally.counts).some((c) => c.added + c.replaced > 0);
      if (changed || lifecycle.folded.collapsedRows + lifecycle.folded.retainedRows > 0)
        await markUpload(tx, uuid, now, account.modVersion);
      if (boards !== undefined && deps.boardsPart) {
        if (head.account === uuid)
          for (const w of await deps.boardsPart.apply(tx, uuid, boards, now, opts.takeBoardOptIns === true))
            if (tally.warnings.length < MAX_BOARD_WARNINGS) tally.warnings.push(w);
        if (head.account !== uuid && tally.warnings.length < MAX_BOARD_WARNINGS)
          tally.warnings.push({
            code: "boards_not_taken",
            message:
              "the file is another account's: its board opt-ins and groups were left out (only its statistics were taken)",
          });
      }
      if (head.zone && head.zone !== before.zone)
        tally.warnings.push({
          code: "zone_mismatch",
          message: `the file's days are labelled in ${head.zone}; this account's zone is ${account.zone}, and the days were taken as they are`,
        });
      return {
        format: head.format!,
        otherAccount: head.account !== uuid,
        sealedBeforeDay: lifecycle.horizon,
        retainedFromDay: lifecycle.retainFrom,
        counts: tally.counts,
        refused: tally.refused(),
        folded: lifecycle.folded,
        warnings: tally.warnings,
      };
    });
  } catch (error) {
    if (isOutOfRange(error)) throw tooLarge();
    throw error;
  }
  if (tally) await keepBoards(deps, uuid, tally);
  return answer;
}

/** The boards' scores moved by what the import wrote: afterUpload once per profile, as after an upload of its rows. */
async function keepBoards(deps: ImportDeps, uuid: string, tally: Tally) {
  if (!deps.afterUpload || tally.touched.size === 0) return;
  const account = await requireAccount(deps.db, uuid);
  const names = new Map((await listProfiles(deps.db, uuid)).map((p) => [p.id, p.cuteName]));
  for (const [profileId, keys] of tally.touched) {
    const rows: UploadDone["rows"] = [];
    for (const [key, days] of keys) for (const day of days) rows.push({ profileId, key, day });
    await deps
      .afterUpload({ uuid, zone: account.zone, profile: { id: profileId, cuteName: names.get(profileId) ?? "" }, rows })
      .catch((error: unknown) =>
        deps.log.error("boards: keeping scores after an import failed", { error: String(error) }),
      );
  }
}
