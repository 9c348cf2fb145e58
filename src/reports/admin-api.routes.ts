// The maintainers' JSON routes, for `Authorization: Bearer <ADMIN_TOKEN>` (compared in constant
// time; wrong tokens limited per address: http/operator-token.ts). Absent without ADMIN_TOKEN.
//   GET  /v1/admin/reports?state=&tool=&version=&q=   problems by count, then last seen
//   GET  /v1/admin/reports/<id>                       one problem: versions, daily counts, state changes, samples
//   POST /v1/admin/reports/<id>/resolve {version}     | /reopen | /mute
import { Elysia } from "elysia";
import { Type as T } from "@sinclair/typebox";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { requireOperatorBearer } from "../http/operator-token.ts";
import { validBody } from "../http/valid-body.ts";
import { utcDay } from "../wire/day.ts";
import { problemsWhere } from "./problems-list.query.ts";
import { applyAction } from "./states.ts";
import { ACTIONS, filterOf, idOf, problemDetail, problemJson } from "./admin-request.ts";

export function reportAdminApiRoutes(deps: { db: Db; clock: Clock; config: Config }) {
  const app = new Elysia({ name: "tally.reports.admin-api" });
  const token = deps.config.adminToken;
  if (!token) return app;
  const actionBody = validBody(
    T.Object({ version: T.Optional(T.String({ maxLength: 64 })) }, { additionalProperties: false }),
  );
  type Caller = Parameters<typeof requireOperatorBearer>[1];
  const bearer = (caller: Caller) =>
    requireOperatorBearer(deps, caller, token, {
      realm: "tally admin",
      message: "the admin routes need the ADMIN_TOKEN bearer token",
    });

  const hidden = { detail: { hide: true } } as const;
  return app
    .get(
      "/v1/admin/reports",
      async ({ request, server }) => {
        await bearer({ request, server });
        const problems = await problemsWhere(deps.db, filterOf(new URL(request.url), utcDay(deps.clock.now())));
        return { problems: problems.map(problemJson) };
      },
      hidden,
    )
    .get(
      "/v1/admin/reports/:id",
      async ({ request, server, params }) => {
        await bearer({ request, server });
        const d = await problemDetail(deps, idOf(params.id));
        return {
          problem: problemJson(d.problem),
          versions: d.versions,
          days: d.days.map((r) => ({ day: r.day, count: r.count })),
          events: d.events.map((e) => ({ at: e.at, action: e.action, version: e.version, actor: e.actor })),
          samples: d.samples.map(({ problemId: _p, ...s }) => s),
        };
      },
      hidden,
    )
    .post(
      "/v1/admin/reports/:id/:action",
      async ({ params, body }) => {
        const action = ACTIONS[params.action as keyof typeof ACTIONS];
        if (!action) throw new ApiError("not_found", "the actions are resolve, reopen and mute");
        const version = (body as { version?: string } | undefined)?.version;
        const done = await applyAction(deps, idOf(params.id), action, "admin", version);
        return { problem: problemJson(done.problem), changed: done.changed };
      },
      {
        ...hidden,
        // The token first, then (only then) the body is read.
        transform: [
          // Async, so Elysia awaits it (as below).
          async (caller: Caller) => {
            await bearer(caller);
          },
          // Async, so Elysia awaits it (it looks at the function's kind, not at what it returns).
          async (ctx: { request: Request; body: unknown }) => {
            if (ctx.body !== undefined) await actionBody(ctx as never);
          },
        ],
      },
    );
}
