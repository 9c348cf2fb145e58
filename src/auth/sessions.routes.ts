// The signed-in device sessions: the current one, the list, sign out one, sign out everywhere.
import { Elysia } from "elysia";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { authGuard } from "./auth-guard.ts";
import { ApiError } from "../http/errors.ts";
import { requireAccount } from "../accounts/accounts.ts";
import { listSessions, signOutAll, signOutOne } from "./sessions.ts";
import { CurrentSessionAnswer, SessionIdParams, SessionsAnswer, SignedOutAnswer } from "./auth.schema.ts";

export function sessionRoutes(deps: { db: Db; clock: Clock }) {
  const tags = ["auth"];
  return new Elysia({ name: "tally.sessions" })
    .use(authGuard(deps))
    .get(
      "/v1/auth/session",
      async ({ signedIn }) => {
        const [account, sessions] = await Promise.all([
          requireAccount(deps.db, signedIn.uuid),
          listSessions(deps, signedIn),
        ]);
        const session = sessions.find((s) => s.current);
        if (!session) throw new ApiError("unauthorized", "this session has ended; sign in again");
        return { uuid: account.uuid, name: account.name, zone: account.zone, session };
      },
      { response: CurrentSessionAnswer, detail: { tags, summary: "The current session and its account" } },
    )
    .get("/v1/auth/sessions", async ({ signedIn }) => ({ sessions: await listSessions(deps, signedIn) }), {
      response: SessionsAnswer,
      detail: { tags, summary: "Every signed-in device of this account" },
    })
    .delete("/v1/auth/sessions", ({ signedIn }) => signOutAll(deps.db, signedIn), {
      response: SignedOutAnswer,
      detail: { tags, summary: "Sign out everywhere; answers how many sessions ended" },
    })
    .delete("/v1/auth/sessions/:id", ({ signedIn, params }) => signOutOne(deps.db, signedIn, params.id), {
      params: SessionIdParams,
      response: SignedOutAnswer,
      detail: { tags, summary: "Sign one device out" },
    });
}
