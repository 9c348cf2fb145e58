// A small kit for fake upstream HTTP servers on port 0: each fake declares its routes, answers like
// the real service (status, headers, bodies), and records every call it received.
export type Call = { method: string; path: string; query: URLSearchParams; headers: Headers; body: string };
export type Route = (req: Request, call: Call) => Response | Promise<Response>;

export function fakeUpstream(routes: Record<string, Route>) {
  const calls: Call[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const call: Call = {
        method: req.method,
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: await req.text(),
      };
      calls.push(call);
      const route =
        routes[`${req.method} ${url.pathname}`] ??
        Object.entries(routes).find(([k]) => matchRoute(k, req.method, url.pathname))?.[1];
      if (!route)
        return new Response(JSON.stringify({ error: "Not Found" }), {
          status: 404,
          headers: { "content-type": "application/json" },
        });
      return route(req, call);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    calls,
    stop: () => server.stop(true),
  };
}

/** "GET /users/:name" style patterns; ":x" matches one path segment. */
function matchRoute(pattern: string, method: string, path: string): boolean {
  const [m, p = ""] = pattern.split(" ");
  if (m !== method) return false;
  const want = p.split("/");
  const got = path.split("/");
  return want.length === got.length && want.every((w, i) => w.startsWith(":") || w === got[i]);
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
