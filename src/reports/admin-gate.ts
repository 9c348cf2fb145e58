// What every maintainers' page route checks, shared by admin.routes.tsx (bug reports, release
// health) and admin-boards.routes.tsx (the boards' exclusions): the admin session's cookie, the
// CSRF field bound to it, the same-origin check of a form post, and how a signed-in page answers.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { sameSecret } from "../http/secret.ts";
import { sameOrigin } from "../http/same-origin.ts";
import { htmlPage } from "../web/respond.ts";
import { adminSessions, mac } from "./admin-sessions.ts";
import { ADMIN_COOKIE, cookieOf } from "./admin-request.ts";

export type AdminGate = ReturnType<typeof adminGate>;

export function adminGate(deps: { db: Db; clock: Clock; config: Config }, token: string) {
  const sessions = adminSessions(deps, token);
  /** The request's admin session cookie, when its session is live. */
  const session = async (request: Request): Promise<string | undefined> => {
    const value = cookieOf(request, ADMIN_COOKIE);
    return value && (await sessions.live(value)) ? value : undefined;
  };
  const csrfFor = (sessionCookie: string) => mac(token, `tally admin csrf ${sessionCookie}`);
  // The pages send Referrer-Policy: no-referrer: a browser's form post says `Origin: null` (http/same-origin.ts).
  const fromOurPage = (request: Request) => sameOrigin(request, deps.config.baseUrl);
  return {
    sessions,
    session,
    csrfFor,
    fromOurPage,
    /** The signed-in page's answer without a session: a redirect to the sign-in form. */
    toLogin: () =>
      new Response(null, { status: 303, headers: { location: "/admin/login", "cache-control": "no-store" } }),
    /** A maintainers' page: never kept, never indexed, no referrer. */
    page: (request: Request, html: string, status = 200, headers: Record<string, string> = {}) =>
      htmlPage(request, html, {
        status,
        cacheControl: "no-store",
        noindex: true,
        headers: { ...headers, "referrer-policy": "no-referrer" },
      }),
    /** A form post: signed in, same origin, and the CSRF field of this cookie. */
    checkForm: async (request: Request, body: unknown): Promise<string> => {
      const s = await session(request);
      if (!s) throw new ApiError("unauthorized", "sign in again: the admin session has ended");
      const csrf = (body as Record<string, unknown> | undefined)?.csrf;
      if (!fromOurPage(request) || typeof csrf !== "string" || !sameSecret(csrf, csrfFor(s))) {
        throw new ApiError("csrf_failed", "this form did not come from the maintainers' page; open the page again");
      }
      return s;
    },
    /** A form post's first check, before its body is read: the admin session's cookie. */
    // Async, so Elysia awaits it (it looks at the function's kind, not at what it returns).
    signedInForm: async ({ request }: { request: Request }) => {
      if (!(await session(request))) throw new ApiError("unauthorized", "sign in again: the admin session has ended");
    },
  };
}
