// Who asks for a board: the player behind a device session token, or nobody (a stranger).
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { authenticate } from "../auth/sessions.ts";
import { requireAccount } from "../accounts/accounts.ts";
import type { Viewer } from "./ranking.ts";

/** The viewer an `Authorization` header names (refused when it is not a live session), or null without one. */
export async function viewerOf(deps: { db: Db; clock: Clock }, authorization: string | null): Promise<Viewer | null> {
  if (!authorization) return null;
  const { uuid } = await authenticate(deps, authorization);
  const account = await requireAccount(deps.db, uuid);
  return { uuid, name: account.name, zone: account.zone };
}
