// The HTML answer for a refused web route: the site's own stylesheet, no third-party asset. The
// composition root hands it to the one onError (http/ knows no page of the website).
import { stylesheet } from "./assets.ts";
import { pageSecurityHeaders } from "./respond.ts";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function errorPage(status: number, message: string, requestId?: string): string {
  const title = status === 404 ? "Not found" : status >= 500 ? "Something went wrong" : "Request refused";
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${status} ${title} · tally</title><link rel="stylesheet" href="${stylesheet.path}"></head><body><main><h1>${status} · ${title}</h1>` +
    `<p>${escapeHtml(message)}</p>${requestId ? `<p><small>Request id: ${escapeHtml(requestId)}</small></p>` : ""}<p><a href="/">Home</a></p></main></body></html>`
  );
}

/** The whole answer: the page, the headers of every page, never cached; `headers` are the refusal's own. */
export function errorPageResponse(refusal: {
  status: number;
  message: string;
  requestId?: string;
  headers: Record<string, string>;
}): Response {
  return new Response(errorPage(refusal.status, refusal.message, refusal.requestId), {
    status: refusal.status,
    headers: {
      ...refusal.headers,
      ...pageSecurityHeaders,
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
    },
  });
}
