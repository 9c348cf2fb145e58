// The cookie a page link is traded for (docs/decisions.md, "The page link and its cookie"). It is
// scoped to its owner's page, `Path=/u/<name>` (the address the link redirects to; the owner's
// export.csv is under it), so each page a browser holds a link for keeps its own cookie: opening a
// friend's link, or a link someone slipped into `/u/<my name>?t=`, never replaces the cookie of
// one's own page. Before, every cookie had `Path=/u/` and the last link opened won.
export const PAGE_COOKIE = "tally_page";

/** The Set-Cookie value of a page cookie for `ownerName`'s page (names are [A-Za-z0-9_], safe in a path). */
export function pageCookieHeader(ownerName: string, value: string, maxAgeMs: number, secure: boolean): string {
  const path = `/u/${encodeURIComponent(ownerName)}`;
  return `${PAGE_COOKIE}=${value}; Path=${path}; Max-Age=${Math.floor(maxAgeMs / 1000)}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** A cookie's value in a request (the first of that name). */
export function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}
