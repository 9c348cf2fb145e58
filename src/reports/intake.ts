// Bug intake: scrub, fingerprint, count into the problem, keep a sample, queue the chat; answered
// at once. The chat is never called here: the outbox job posts later, so intake never waits on it.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Log } from "../log.ts";
import type { Config } from "../config.ts";
import type { Static } from "@sinclair/typebox";
import { ApiError } from "../http/errors.ts";
import { ACCEPTED_SCHEMAS } from "../wire/schema-version.ts";
import { scrubFields } from "../privacy/scrub.ts";
import { nameCandidates } from "../privacy/known-names.ts";
import { fingerprintOf } from "./fingerprint.ts";
import { recordReport } from "./reports.query.ts";
import { plainText } from "./plain-text.ts";
import { plausibleVersion, VERSION_NUMBER_DIGITS } from "./versions.ts";
import { accountsOnVersion } from "../accounts/accounts.ts";
import type { ReportBody } from "./reports.schema.ts";

export type IntakeDeps = {
  db: Db;
  clock: Clock;
  config: Pick<
    Config,
    | "reportTools"
    | "reportSamplesKept"
    | "reportAppPackages"
    | "chatWebhookUrl"
    | "reportRegressionMinAccounts"
    | "privacyUnknownWords"
  >;
  pseudonymKey: () => Promise<string>;
  /**
   * The game's own words the scrubber's fallback keeps (issue 36): the words of this instance's item
   * names (src/items/item-names.ts), handed in so this module reads no other module's tables.
   */
  gameWords?: () => Promise<ReadonlySet<string>>;
  /**
   * Which of these lower-case words are names this instance knows are players' (issue 36): an
   * account's, or one the profile lookups cached. Handed in, as the game's words are.
   */
  knownPlayers?: (lowerWords: string[]) => Promise<ReadonlySet<string>>;
};

export function requireTool(config: Pick<Config, "reportTools">, tool: string) {
  if (!config.reportTools.includes(tool)) throw new ApiError("not_found", "no such route");
}

export async function receiveReport(deps: IntakeDeps, tool: string, body: Static<typeof ReportBody>, log?: Log) {
  requireTool(deps.config, tool);
  if (!ACCEPTED_SCHEMAS.includes(body.schema)) {
    throw new ApiError(
      "unsupported_schema",
      `schema ${body.schema} is not accepted; accepted: ${ACCEPTED_SCHEMAS.join(", ")}`,
      "/schema",
    );
  }
  if (!plausibleVersion(body.modVersion)) {
    throw new ApiError(
      "invalid_body",
      `/modVersion: a number in a version has at most ${VERSION_NUMBER_DIGITS} digits`,
      "/modVersion",
    );
  }
  // May this report reopen a resolved problem? Only from a version signed-in clients run: anyone
  // can claim any version (docs/decisions.md, "Which reports reopen a resolved problem").
  const min = deps.config.reportRegressionMinAccounts;
  const versionVouched = min === 0 || (await accountsOnVersion(deps.db, body.modVersion, min)) >= min;
  const key = await deps.pseudonymKey();
  // Control sequences and bidi overrides go first: nothing stored, printed or posted carries them.
  const clean = (t: string | undefined) => (t === undefined ? undefined : plainText(t));
  const title = plainText(body.title).trim() || "(untitled)";
  const fields = { title, message: clean(body.message), steps: clean(body.steps), stackTrace: clean(body.stackTrace) };
  const gameWords = await deps.gameWords?.();
  // A bounded look-up (MOST_NAMES_LOOKED_UP words): the names among the report's words nothing knows.
  const players = await deps.knownPlayers?.(nameCandidates(fields, gameWords));
  const scrubbed = scrubFields(key, fields, { unknownWords: deps.config.privacyUnknownWords, gameWords, players });
  const f = scrubbed.fields;
  const print = fingerprintOf({ tool, title: f.title, stackTrace: f.stackTrace }, deps.config.reportAppPackages);
  const { problem, created, unvouched } = await recordReport(deps.db, {
    fingerprint: print.fingerprint,
    tool,
    kind: print.kind,
    exceptionType: print.exceptionType,
    signature: print.signature,
    now: deps.clock.now(),
    sample: {
      modVersion: body.modVersion,
      minecraft: body.minecraft,
      loader: body.loader ?? null,
      title: f.title,
      message: f.message ?? null,
      steps: f.steps ?? null,
      stackTrace: f.stackTrace ?? null,
    },
    samplesKept: deps.config.reportSamplesKept,
    versionVouched,
    chat: deps.config.chatWebhookUrl !== "",
  });
  // Counts only: never the text, never a name.
  log?.info("bug report", {
    problemId: problem.number,
    status: created ? "new" : "repeat",
    count: problem.count,
    kind: print.kind,
    pseudonymised: scrubbed.names + scrubbed.uuids,
    // From the fixing version or newer, but no signed-in client runs it: counted, not reopened.
    ...(unvouched ? { notReopened: "no signed-in client uploads from this mod version" } : {}),
  });
  return { problemId: problem.number, status: created ? ("new" as const) : ("repeat" as const), count: problem.count };
}
