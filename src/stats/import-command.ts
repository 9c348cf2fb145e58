// `tally import <file> --account <name>`: an operator takes an export file into an account of this
// instance, by the same rules as POST /v1/stats/import (import.ts): checked whole, then applied in
// one transaction; a file of another account needs --confirm-other-account. The file may be gzip or
// plain JSON; it is read as it streams, twice (checked, then applied), never held whole.
import { existsSync } from "node:fs";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Log } from "../log.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import { accountByName } from "../accounts/accounts.ts";
import { ApiError } from "../http/errors.ts";
import { importFile, type ImportDeps } from "./import.ts";

export const IMPORT_USAGE = "tally import <file> --account <name> [--confirm-other-account]";

export type ImportCommand = { file: string; account: string; confirmOtherAccount: boolean };

export function parseImportArgs(args: string[]): ImportCommand | { error: string } {
  const [file, ...rest] = args;
  if (!file || file.startsWith("--")) return { error: `import needs a file: ${IMPORT_USAGE}` };
  const at = rest.indexOf("--account");
  const account = at >= 0 ? rest[at + 1] : undefined;
  if (!account || account.startsWith("--")) return { error: `import needs the account's name: ${IMPORT_USAGE}` };
  const confirm = rest.includes("--confirm-other-account");
  if (rest.length !== 2 + (confirm ? 1 : 0))
    return { error: `unexpected ${JSON.stringify(rest.join(" "))}: ${IMPORT_USAGE}` };
  return { file, account, confirmOtherAccount: confirm };
}

/** At most one progress line a second. */
const PROGRESS_EVERY_MS = 1000;

/** Runs the import; answers what to print. Refusals are thrown as ApiError (the caller prints code and message). */
export async function runImportCommand(
  deps: Omit<ImportDeps, "catalogue"> & { catalogue: Catalogue; db: Db; clock: Clock; log: Log },
  c: ImportCommand,
  progress: (line: string) => void,
): Promise<string> {
  if (!existsSync(c.file)) throw new ApiError("not_found", `no such file: ${c.file}`);
  const account = await accountByName(deps.db, c.account);
  if (!account) throw new ApiError("not_found", `no account named ${JSON.stringify(c.account)} on this instance`);
  const started = performance.now();
  let last = started;
  const answer = await importFile(deps, account.uuid, () => Bun.file(c.file).stream(), {
    plainAllowed: true,
    confirmOtherAccount: c.confirmOtherAccount,
    progress: (rows) => {
      const now = performance.now();
      if (now - last < PROGRESS_EVERY_MS) return;
      last = now;
      progress(`importing into ${account.name}: ${rows} rows written, ${((now - started) / 1000).toFixed(1)} s\n`);
    },
  });
  const lines = Object.entries(answer.counts).map(
    ([kind, n]) =>
      `  ${kind.padEnd(15)} ${n.added} added, ${n.replaced} replaced, ${n.skipped} skipped, ${n.refused} refused`,
  );
  const refused = answer.refused.map((r) => `  refused ${r.code}: ${r.rows} rows`);
  const warnings = answer.warnings.map((w) => `  warning ${w.code}${w.key ? ` (${w.key})` : ""}: ${w.message}`);
  return [
    `imported ${c.file} into ${account.name} (format ${answer.format}${answer.otherAccount ? ", another account's file" : ""}) in ${((performance.now() - started) / 1000).toFixed(1)} s:`,
    ...lines,
    ...refused,
    `  folded: ${answer.folded.collapsedRows} rows past the seal horizon collapsed, ${answer.folded.retainedRows} past the retention folded into the baseline`,
    ...warnings,
    "",
  ].join("\n");
}
