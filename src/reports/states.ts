// A maintainer's actions on a problem: resolve in a version, reopen, mute. Shared by `tally
// reports`, the admin routes and the maintainers' page; each change is kept in the problem's audit
// list with its time, version and who made it, and queues the chat so the thread follows.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { changeState, problemByNumber, type Actor, type StateAction } from "./reports.query.ts";

export const VERSION_PATTERN = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$/;

export type StateDeps = { db: Db; clock: Clock; config: Pick<Config, "chatWebhookUrl"> };

/** Applies one action to problem number `id`; throws a clear ApiError for an unknown problem or a bad version. */
export async function applyAction(deps: StateDeps, id: number, action: StateAction, actor: Actor, version?: string) {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw new ApiError("not_found", `no problem #${id}`);
  if (action === "resolved") {
    if (!version)
      throw new ApiError("invalid_body", "resolving needs the version that fixes it (for example 1.4.0)", "/version");
    if (!VERSION_PATTERN.test(version))
      throw new ApiError(
        "invalid_body",
        "a version is 1 to 64 of A-Z a-z 0-9 . + _ - (for example 1.4.0-beta.2)",
        "/version",
      );
  }
  const found = await problemByNumber(deps.db, id);
  if (!found) throw new ApiError("not_found", `no problem #${id}`);
  const done = await changeState(deps.db, found.id, {
    action,
    version,
    actor,
    now: deps.clock.now(),
    chat: deps.config.chatWebhookUrl !== "",
  });
  if (!done) throw new ApiError("not_found", `no problem #${id}`);
  return done;
}
