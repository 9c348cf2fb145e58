// The token guard: a module that uses it gets `signedIn` ({ uuid, sessionId }) on every route, from
// the device session only (contract 1.1 rule 4). It runs before body validation, so a request
// without a valid token is told 401 whatever its body holds.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { signedInGuard } from "../http/signed-in.ts";
import { authenticate } from "./sessions.ts";

export function authGuard(deps: { db: Db; clock: Clock }) {
  return signedInGuard((authorization) => authenticate(deps, authorization));
}
