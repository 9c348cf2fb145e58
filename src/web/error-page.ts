// The HTML answer for a refused web route: the site's own stylesheet, no third-party asset. The
// composition root hands it to the one onError (http/ knows no page of the website).
import { icon, stylesheet } from "./assets.ts";
import { pageSecurityHeaders } from "./respond.ts";
import { NotFoundPage } from "./not-found.tsx";
import { sync } from "./layout.tsx";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function errorPage(status: number, message: string, requestId?: string): string {
  const title = status === 404 ? "Not found" : status >= 500 ? "Something went wrong" : "Request refused";
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${status} ${title} · tally</title><link rel="stylesheet" href="${stylesheet.path}"><link rel="icon" type="image/svg+xml" href="${icon.path}"></head><body><main><h1>${status} · ${title}</h1>` +
    `<p>${escapeHtml(message)}</p>${requestId ? `<p><small>Request id: ${escapeHtml(requestId)}</small></p>` : ""}<p><a href="/">Home</a></p></main></body></html>`
  );
}

/**
 * The whole answer: the page, the headers of every page, never cached; `headers` are the refusal's own.
 * A 404 is the site's own not-found page with its navigation (issue 34: one 404 for every unknown
 * address, `/u/` and `/s/` included); other refusals are the small page above.
 */
export function errorPageResponse(refusal: {
  status: number;
  message: string;
  requestId?: string;
  headers: Record<string, string>;
}): Response {
  const html =
    refusal.status === 404
      ? sync(NotFoundPage({ noindex: true }))
      : errorPage(refusal.status, refusal.message, refusal.requestId);
  return new Response(html, {
    status: refusal.status,
    headers: {
      ...refusal.headers,
      ...pageSecurityHeaders,
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
    },
  });
}
