// Whether a form post came from this service's own pages (the maintainers' page, the owner's
// statistics page). A browser's post names its Origin; under Referrer-Policy: no-referrer it says
// `Origin: null`, and then Sec-Fetch-Site (when sent) decides. The forms carry a field bound to
// their cookie as well, and the cookies are SameSite, so this is one check of three.
export function sameOrigin(request: Request, baseUrl: string): boolean {
  const origin = request.headers.get("origin");
  if (origin === null || origin === "null") return request.headers.get("sec-fetch-site") !== "cross-site";
  return origin === new URL(request.url).origin || origin === new URL(baseUrl).origin;
}
