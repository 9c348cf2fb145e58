// How every page answers: HTML with a Content-Security-Policy that lets the browser contact no
// host but this one, compressed when the browser accepts gzip.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  "style-src 'self'",
  "script-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers every HTML answer carries, error pages included. */
export const pageSecurityHeaders = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
} as const;

export type PageOptions = {
  status?: number;
  cacheControl: string;
  noindex?: boolean;
  headers?: Record<string, string>;
};

const acceptsGzip = (request: Request) => /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");

/** Compresses a text body for a browser that accepts it (anything under 1 KiB goes as it is). */
export function encoded(
  request: Request,
  body: string,
): { body: string | Uint8Array<ArrayBuffer>; headers: Record<string, string> } {
  if (body.length < 1024 || !acceptsGzip(request)) return { body, headers: { vary: "accept-encoding" } };
  return {
    body: Bun.gzipSync(new TextEncoder().encode(body)) as Uint8Array<ArrayBuffer>,
    headers: { vary: "accept-encoding", "content-encoding": "gzip" },
  };
}

export function htmlPage(request: Request, html: string, opts: PageOptions): Response {
  const { body, headers } = encoded(request, html);
  return new Response(body, {
    status: opts.status ?? 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      ...pageSecurityHeaders,
      "cache-control": opts.cacheControl,
      ...(opts.noindex ? { "x-robots-tag": "noindex" } : {}),
      ...headers,
      ...opts.headers,
    },
  });
}
