// The cookie a page link is traded for (docs/decisions.md, "The page link and its cookie"). It is
// scoped to its owner's page, `Path=/u/<name>` (the address the link redirects to; the owner's
// export.csv is under it), so each page a browser holds a link for keeps its own cookie: opening a
// friend's link, or a link someone slipped into `/u/<my name>?t=`, never replaces the cookie of
// one's own page. Before, every cookie had `Path=/u/` and the last link opened won.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { accountByPageCookie, type Account } from "../accounts/accounts.ts";

export const PAGE_COOKIE = "tally_page";

/** A name a page is at (/u/<name>): a player name's characters, 1 to 16 of them. */
export const PAGE_NAME = /^[A-Za-z0-9_]{1,16}$/;

/** The Set-Cookie value of a page cookie for `ownerName`'s page (names are [A-Za-z0-9_], safe in a path). */
export function pageCookieHeader(ownerName: string, value: string, maxAgeMs: number, secure: boolean): string {
  const path = `/u/${encodeURIComponent(ownerName)}`;
  return `${PAGE_COOKIE}=${value}; Path=${path}; Max-Age=${Math.floor(maxAgeMs / 1000)}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** A cookie's value from the request's Cookie header. */
export function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** The owner of `name`'s page, when this browser holds that page's cookie (anyone else: undefined). */
export async function pageOwner(deps: { db: Db; clock: Clock }, request: Request, name: string) {
  if (!PAGE_NAME.test(name)) return undefined;
  const cookie = cookieOf(request, PAGE_COOKIE);
  if (!cookie || cookie.length > 64) return undefined;
  const own: Account | undefined = await accountByPageCookie(deps.db, cookie, deps.clock.now());
  return own && own.name.toLowerCase() === name.toLowerCase() ? own : undefined;
}
