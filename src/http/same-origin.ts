// Whether a form post came from this service's own pages (the maintainers' page, the owner's
// statistics page). A browser's post names its Origin; under Referrer-Policy: no-referrer it says
// `Origin: null`, and then Sec-Fetch-Site (when sent) decides: same-origin (or none, the user's own
// action) only; same-site is a sibling host, another origin that the SameSite cookies still go to.
// The cookies are SameSite, and the tokens form carries a field bound to its cookie as well.
export function sameOrigin(request: Request, baseUrl: string): boolean {
  const origin = request.headers.get("origin");
  if (origin === null || origin === "null") {
    const site = request.headers.get("sec-fetch-site");
    return site === null || site === "same-origin" || site === "none";
  }
  return origin === new URL(request.url).origin || origin === new URL(baseUrl).origin;
}
