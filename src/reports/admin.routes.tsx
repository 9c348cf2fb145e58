// Maintainers' access to bug intake, behind ADMIN_TOKEN (absent, 404, without it):
//   JSON, for `Authorization: Bearer <ADMIN_TOKEN>` (compared in constant time; wrong tokens, here
//   and in the sign-in form, limited per address: http/operator-token.ts):
//     GET  /v1/admin/reports?state=&tool=&version=   problems by count, then last seen
//     GET  /v1/admin/reports/<id>                    one problem: versions, daily counts, state changes, samples
//     POST /v1/admin/reports/<id>/resolve {version}  | /reopen | /mute
//   The page, for a browser:
//     GET  /admin/login, POST /admin/login (form: token) -> an HttpOnly, SameSite=Strict cookie for
//          /admin/ (8 hours): a session kept as a row (admin-sessions.ts), so signing out ends it on
//          every instance, and a new ADMIN_TOKEN ends them all
//     GET  /admin/reports, /admin/reports/<id>; POST /admin/reports/<id>/(resolve|reopen|mute),
//          POST /admin/logout: each form carries a CSRF field bound to the cookie, and a request
//          whose Origin is another site is refused.
import { Elysia } from "elysia";
import { Type as T } from "@sinclair/typebox";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { sameSecret } from "../http/secret.ts";
import { sameOrigin } from "../http/same-origin.ts";
import { operatorSecretMatches, requireOperatorBearer } from "../http/operator-token.ts";
import { clientAddress } from "../http/client-address.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { validBody } from "../http/valid-body.ts";
import { readForm } from "../http/body.ts";
import { htmlPage } from "../web/respond.ts";
import { addDays, utcDay } from "../wire/day.ts";
import {
  chatStatus,
  dailyCounts,
  eventsOf,
  filterChoices,
  problemByNumber,
  problemsWhere,
  samplesOf,
  versionsOf,
  type Problem,
  type ProblemFilter,
} from "./reports.query.ts";
import { applyAction, VERSION_PATTERN } from "./states.ts";
import { newestVersion, releaseHealth, versionHealth } from "./release-health.ts";
import { VersionPage, VersionsPage } from "./version-view.tsx";
import { compareVersions } from "./versions.ts";
import { webhookKey } from "./chat-outbox.ts";
import { DetailPage, ListPage, LoginPage } from "./admin-view.tsx";
import { stateText } from "./problems-list.ts";
import { ADMIN_SESSION_MS, adminSessions, mac } from "./admin-sessions.ts";

export const ADMIN_COOKIE = "tally_admin";
const DAYS_SHOWN = 30;
/** The list orders by reports of the last this many days (after open regressions). */
const RECENT_DAYS = 7;
const ID = /^[1-9]\d{0,9}$/;
const ACTIONS = { resolve: "resolved", reopen: "reopened", mute: "muted" } as const;

type Deps = { db: Db; clock: Clock; config: Config };

function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** The problem as the JSON routes answer it. */
function problemJson(p: Problem) {
  return {
    id: p.number,
    title: p.title,
    tool: p.tool,
    state: p.state,
    stateText: stateText(p),
    resolvedIn: p.resolvedIn,
    regressedIn: p.regressedIn,
    count: p.count,
    firstSeenAt: p.firstSeenAt,
    lastSeenAt: p.lastSeenAt,
    minVersion: p.minVersion,
    maxVersion: p.maxVersion,
    lastMinecraft: p.lastMinecraft,
    thread: p.chatThreadId !== null,
  };
}

function filterOf(url: URL, today: string): ProblemFilter {
  const state = url.searchParams.get("state") ?? "";
  const tool = url.searchParams.get("tool") ?? "";
  const version = url.searchParams.get("version") ?? "";
  const text = (url.searchParams.get("q") ?? "").trim();
  if (state && !["open", "regressed", "resolved", "muted"].includes(state))
    throw new ApiError("invalid_query", "state is open, regressed, resolved or muted", "/state");
  if (tool.length > 32 || version.length > 64 || text.length > 100)
    throw new ApiError("invalid_query", "tool is at most 32, version 64 and q 100 characters");
  return {
    ...(state ? { state: state as ProblemFilter["state"] } : {}),
    ...(tool ? { tool } : {}),
    ...(version ? { version } : {}),
    ...(text ? { text } : {}),
    recentFrom: addDays(today, -(RECENT_DAYS - 1)),
    limit: 500,
  };
}

const idOf = (text: string) => {
  if (!ID.test(text)) throw new ApiError("not_found", `no problem ${JSON.stringify(text.slice(0, 20))}`);
  return Number(text);
};

/** Each day of the last 30 with its count (a day without a report is 0). */
function fullDays(rows: { day: string; count: number }[], from: string): { day: string; value: number }[] {
  const by = new Map(rows.map((r) => [r.day, r.count]));
  return Array.from({ length: DAYS_SHOWN }, (_, i) => addDays(from, i)).map((day) => ({
    day,
    value: by.get(day) ?? 0,
  }));
}

export function reportAdminRoutes(deps: Deps) {
  const app = new Elysia({ name: "tally.reports.admin" });
  const token = deps.config.adminToken;
  if (!token) return app;
  const secure = deps.config.baseUrl.startsWith("https:");
  const loginLimit = { name: "admin_login", perWindow: deps.config.authRateLimit, windowMs: 60_000 };

  // --- the cookie and the CSRF field -------------------------------------------------------
  const sessions = adminSessions(deps, token);
  /** The request's admin session cookie, when its session is live. */
  const session = async (request: Request): Promise<string | undefined> => {
    const value = cookieOf(request, ADMIN_COOKIE);
    return value && (await sessions.live(value)) ? value : undefined;
  };
  const csrfFor = (sessionCookie: string) => mac(token, `tally admin csrf ${sessionCookie}`);
  // The pages send Referrer-Policy: no-referrer: a browser's form post says `Origin: null` (http/same-origin.ts).
  const fromOurPage = (request: Request) => sameOrigin(request, deps.config.baseUrl);
  /** The signed-in page's session, or a redirect to the sign-in form. */
  const toLogin = () =>
    new Response(null, { status: 303, headers: { location: "/admin/login", "cache-control": "no-store" } });
  const page = (request: Request, html: string, status = 200, headers: Record<string, string> = {}) =>
    htmlPage(request, html, {
      status,
      cacheControl: "no-store",
      noindex: true,
      headers: { ...headers, "referrer-policy": "no-referrer" },
    });
  /** A form post: signed in, same origin, and the CSRF field of this cookie. */
  const checkForm = async (request: Request, body: unknown): Promise<string> => {
    const s = await session(request);
    if (!s) throw new ApiError("unauthorized", "sign in again: the admin session has ended");
    const csrf = (body as Record<string, unknown> | undefined)?.csrf;
    if (!fromOurPage(request) || typeof csrf !== "string" || !sameSecret(csrf, csrfFor(s))) {
      throw new ApiError("csrf_failed", "this form did not come from the maintainers' page; open the page again");
    }
    return s;
  };
  /** A form post's first check, before its body is read: the admin session's cookie. */
  // Async, so Elysia awaits it (it looks at the function's kind, not at what it returns).
  const signedInForm = async ({ request }: { request: Request }) => {
    if (!(await session(request))) throw new ApiError("unauthorized", "sign in again: the admin session has ended");
  };
  const actionBody = validBody(
    T.Object({ version: T.Optional(T.String({ maxLength: 64 })) }, { additionalProperties: false }),
  );
  type Caller = Parameters<typeof requireOperatorBearer>[1];
  const bearer = (caller: Caller) =>
    requireOperatorBearer(deps, caller, token, {
      realm: "tally admin",
      message: "the admin routes need the ADMIN_TOKEN bearer token",
    });

  const detail = async (id: number) => {
    const problem = await problemByNumber(deps.db, id);
    if (!problem) throw new ApiError("not_found", `no problem #${id}`);
    const to = utcDay(deps.clock.now());
    const from = addDays(to, -(DAYS_SHOWN - 1));
    const [versions, days, events, samples] = await Promise.all([
      versionsOf(deps.db, problem.id),
      dailyCounts(deps.db, [problem.id], from),
      eventsOf(deps.db, problem.id),
      samplesOf(deps.db, problem.id),
    ]);
    return { problem, versions, days, events, samples, from, to };
  };

  const hidden = { detail: { hide: true } } as const;
  return (
    app
      // --- JSON ------------------------------------------------------------------------------
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
          const d = await detail(idOf(params.id));
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
      )
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
          const d = await detail(idOf(params.id));
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
