// An image route's answer (a card's PNG, a badge's SVG) and the refusals its OpenAPI entry lists:
// shared by the cards' routes and a group board's badge (web/groups.routes.tsx).
import { etagMatches } from "../http/etag.ts";

/** The SVG carries no script and loads nothing, and a browser opening it alone runs none. */
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** Refusals of these routes are the website's HTML pages (http/on-error.ts), like their pages'. */
export const html = (description: string) => ({ description, content: { "text/html": {} } });
export const HTML_REFUSALS = {
  404: html("No such page here: the same answer as the page's"),
  429: html("Too many requests from this address (an HTML page; Retry-After)"),
  500: html("Internal error (an HTML page with a request id)"),
  503: html("The database is unavailable (an HTML page; Retry-After)"),
};

/** A badge's answers in its OpenAPI entry: the SVG, or not modified. */
export const BADGE_ANSWERS = {
  200: {
    description: "The badge: an SVG, light and dark by prefers-color-scheme.",
    headers: { ETag: { schema: { type: "string" } } },
    content: { "image/svg+xml": { schema: { type: "string" } } },
  },
  304: { description: "Not modified: the If-None-Match ETag is current." },
};

/** A badge's SVG, its ETag (`tag` and the SVG's digest) made from it. */
export const badgeImage = (request: Request, svg: string, tag: string, cacheControl: string) =>
  image(
    request,
    svg,
    "image/svg+xml; charset=utf-8",
    `"${tag}-${new Bun.CryptoHasher("sha256").update(svg).digest("hex").slice(0, 32)}"`,
    cacheControl,
  );

/** An image with its ETag (304 when the request's If-None-Match holds it) and its cache policy. */
export function image(request: Request, body: Uint8Array | string, type: string, etag: string, cacheControl: string) {
  const headers: Record<string, string> = {
    etag,
    "cache-control": cacheControl,
    "x-content-type-options": "nosniff",
    ...(type.startsWith("image/svg") ? { "content-security-policy": SVG_POLICY } : {}),
    ...(cacheControl === "no-store" ? { "x-robots-tag": "noindex", "referrer-policy": "no-referrer" } : {}),
  };
  if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(body as Uint8Array<ArrayBuffer>, { headers: { ...headers, "content-type": type } });
}
