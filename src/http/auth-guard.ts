// The token guard: a module that uses it gets `signedIn` ({ uuid, sessionId }) on every route, from
// the session only (contract 1.1 rule 4). It runs before body validation, so a request without a
// valid token is told 401 whatever its body holds.
import { Elysia } from "elysia";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { authenticate } from "../auth/sessions.ts";

export function authGuard(deps: { db: Db; clock: Clock }) {
  // Unnamed on purpose: Elysia de-duplicates named plugins, and every module needs its own guard.
  return new Elysia().derive({ as: "scoped" }, async ({ request }) => ({
    signedIn: await authenticate(deps, request.headers.get("authorization")),
  }));
}
