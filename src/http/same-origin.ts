// Did a browser's form post come from a page of this service? The Origin header says so (this
// request's own origin, or BASE_URL's behind a proxy); pages sent with Referrer-Policy: no-referrer
// post `Origin: null`, and then Sec-Fetch-Site (when the browser sends it) must not say cross-site.
// With a SameSite cookie this keeps another site's form from acting as the player.
export function sameOrigin(request: Request, baseUrl: string): boolean {
  const origin = request.headers.get("origin");
  if (origin === null || origin === "null") return request.headers.get("sec-fetch-site") !== "cross-site";
  return origin === new URL(request.url).origin || origin === new URL(baseUrl).origin;
}
