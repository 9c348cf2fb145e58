// Maintainers' access to bug intake, behind ADMIN_TOKEN (absent, 404, without it): the JSON routes
// for a bearer token are admin-api.routes.ts; this file is the page, for a browser (wrong tokens
// in the sign-in form limited per address: http/operator-token.ts):
//     GET  /admin/login, POST /admin/login (form: token) -> an HttpOnly, SameSite=Strict cookie for
//          /admin/ (8 hours): a session kept as a row (admin-sessions.ts), so signing out ends it on
//          every instance, and a new ADMIN_TOKEN ends them all
//     GET  /admin/reports, /admin/reports/<id>; POST /admin/reports/<id>/(resolve|reopen|mute),
//          POST /admin/logout: each form carries a CSRF field bound to the cookie, and a request
//          whose Origin is another site is refused.
//     GET  /admin/boards, POST /admin/boards/(exclude|include): the boards' held figures and
//          exclusions (admin-boards.routes.tsx), behind the same session and checks.
import { Elysia } from "elysia";
import { ApiError } from "../http/errors.ts";
import { operatorSecretMatches } from "../http/operator-token.ts";
import { clientAddress } from "../http/client-address.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { readForm } from "../http/body.ts";
import { addDays, utcDay } from "../wire/day.ts";
import { dailyCounts } from "./reports.query.ts";
import { filterChoices, problemsWhere } from "./problems-list.query.ts";
import { chatStatus } from "./chat.query.ts";
import { applyAction, VERSION_PATTERN } from "./states.ts";
import { newestVersion, releaseHealth, versionHealth } from "./release-health.ts";
import { VersionPage, VersionsPage } from "./version-view.tsx";
import { compareVersions } from "./versions.ts";
import { webhookKey } from "./chat-outbox.ts";
import { LoginPage } from "./admin-layout.tsx";
import { ListPage } from "./problems-list-view.tsx";
import { DetailPage } from "./problem-view.tsx";
import { reportAdminApiRoutes } from "./admin-api.routes.ts";
import { stateText } from "./problems-list.ts";
import { ADMIN_SESSION_MS } from "./admin-sessions.ts";
import { adminGate } from "./admin-gate.ts";
import { boardsAdminRoutes, type BoardsAdminDeps } from "./admin-boards.routes.tsx";
import {
  ACTIONS,
  ADMIN_COOKIE,
  DAYS_SHOWN,
  RECENT_DAYS,
  filterOf,
  fullDays,
  idOf,
  problemDetail,
} from "./admin-request.ts";

type Deps = BoardsAdminDeps;

export function reportAdminRoutes(deps: Deps) {
  const app = new Elysia({ name: "tally.reports.admin" });
  const token = deps.config.adminToken;
  if (!token) return app;
  const secure = deps.config.baseUrl.startsWith("https:");
  const loginLimit = { name: "admin_login", perWindow: deps.config.authRateLimit, windowMs: 60_000 };

  const gate = adminGate(deps, token);
  const { sessions, session, csrfFor, fromOurPage, toLogin, page, checkForm, signedInForm } = gate;
  const hidden = { detail: { hide: true } } as const;
  return (
    app
      .use(reportAdminApiRoutes(deps))
      .use(boardsAdminRoutes(deps, gate))
      // --- the page --------------------------------------------------------------------------
      .get("/admin", () => new Response(null, { status: 303, headers: { location: "/admin/reports" } }), hidden)
      .get(
        "/admin/login",
        async ({ request }) =>
          (await session(request))
            ? new Response(null, { status: 303, headers: { location: "/admin/reports" } })
            : page(request, LoginPage({})),
        hidden,
      )
      .post(
        "/admin/login",
        async ({ request, server, body }) => {
          const given = (body as Record<string, unknown> | undefined)?.token;
          // A wrong token counts against the address like a wrong bearer token (429 past the limit).
          if (
            !fromOurPage(request) ||
            typeof given !== "string" ||
            !(await operatorSecretMatches(deps, { request, server }, given, token))
          ) {
            return page(request, LoginPage({ error: "That is not the admin token." }), 401);
          }
          const value = await sessions.start();
          const cookie = `${ADMIN_COOKIE}=${value}; Path=/admin/; Max-Age=${ADMIN_SESSION_MS / 1000}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
          return new Response(null, {
            status: 303,
            headers: { location: "/admin/reports", "set-cookie": cookie, "cache-control": "no-store" },
          });
        },
        {
          ...hidden,
          // The address's login limit first, then (only then) the form is read.
          transform: [
            async ({ request, server }: { request: Request; server: Parameters<typeof clientAddress>[1] }) => {
              await enforceRateLimit(deps, loginLimit, clientAddress(request, server, deps.config.trustProxy));
            },
            readForm(),
          ],
        },
      )
      .post(
        "/admin/logout",
        async ({ request, body }) => {
          // The session ends here, for every copy of the cookie; the browser forgets its own.
          await sessions.end(await checkForm(request, body));
          const cookie = `${ADMIN_COOKIE}=; Path=/admin/; Max-Age=0; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
          return new Response(null, {
            status: 303,
            headers: { location: "/admin/login", "set-cookie": cookie, "cache-control": "no-store" },
          });
        },
        { ...hidden, transform: [signedInForm, readForm()] },
      )
      .get(
        "/admin/reports",
        async ({ request }) => {
          const s = await session(request);
          if (!s) return toLogin();
          const filter = filterOf(new URL(request.url), utcDay(deps.clock.now()));
          const problems = await problemsWhere(deps.db, filter);
          const to = utcDay(deps.clock.now());
          const from = addDays(to, -(DAYS_SHOWN - 1));
          const rows = await dailyCounts(
            deps.db,
            problems.map((p) => p.id),
            from,
          );
          const byProblem = Map.groupBy(rows, (r) => r.problemId);
          const days = new Map(problems.map((p) => [p.id, fullDays(byProblem.get(p.id) ?? [], from)]));
          const status = deps.config.chatWebhookUrl
            ? await chatStatus(deps.db, webhookKey(deps.config.chatWebhookUrl))
            : undefined;
          const chatNote = status
            ? status.status === "webhook_gone"
              ? "The chat webhook was deleted: nothing is posted to the chat until CHAT_WEBHOOK_URL names a new one. Reports are kept."
              : `The chat refuses new threads: ${status.detail}.`
            : undefined;
          return page(
            request,
            ListPage({
              problems,
              days,
              filter,
              choices: await filterChoices(deps.db),
              csrf: csrfFor(s),
              chatNote,
              recentDays: RECENT_DAYS,
            }),
          );
        },
        hidden,
      )
      .get(
        "/admin/reports/:id",
        async ({ request, params }) => {
          const s = await session(request);
          if (!s) return toLogin();
          const d = await problemDetail(deps, idOf(params.id));
          const done = new URL(request.url).searchParams.get("done");
          const newest = await newestVersion(
            deps,
            d.versions.map((x) => x.version),
          );
          return page(
            request,
            DetailPage({
              ...d,
              days: fullDays(d.days, d.from),
              versions: d.versions.sort((a, b) => compareVersions(b.version, a.version)),
              newestVersion: newest,
              csrf: csrfFor(s),
              done: done === "1" ? `Saved: the problem is now ${stateText(d.problem)}.` : undefined,
            }),
          );
        },
        hidden,
      )
      .get(
        "/admin/versions",
        async ({ request }) => {
          const s = await session(request);
          if (!s) return toLogin();
          const h = await releaseHealth(deps);
          return page(
            request,
            VersionsPage({
              summaries: h.summaries,
              comparison: h.comparison,
              csrf: csrfFor(s),
              days: deps.config.releaseHealthDays,
              today: h.today,
            }),
          );
        },
        hidden,
      )
      .get(
        "/admin/versions/:version",
        async ({ request, params }) => {
          const s = await session(request);
          if (!s) return toLogin();
          const h = VERSION_PATTERN.test(params.version) ? await versionHealth(deps, params.version) : undefined;
          if (!h) throw new ApiError("not_found", "no upload or report names this mod version");
          return page(request, VersionPage({ ...h, csrf: csrfFor(s), keptDays: deps.config.releaseHealthDays }));
        },
        hidden,
      )
      .post(
        "/admin/reports/:id/:action",
        async ({ request, params, body }) => {
          await checkForm(request, body);
          const action = ACTIONS[params.action as keyof typeof ACTIONS];
          if (!action) throw new ApiError("not_found", "the actions are resolve, reopen and mute");
          const id = idOf(params.id);
          const version = (body as Record<string, unknown>).version;
          await applyAction(deps, id, action, "admin", typeof version === "string" ? version.trim() : undefined);
          return new Response(null, {
            status: 303,
            headers: { location: `/admin/reports/${id}?done=1`, "cache-control": "no-store" },
          });
        },
        { ...hidden, transform: [signedInForm, readForm()] },
      )
  );
}
