// A stranger's walk of a page: ask for each address, follow the links of the pages within `start`,
// once each. Past the account's render budget for the minute (429), the walk waits for the next
// minute as a visitor would (on the injected clock).
import type { TestApp } from "../support/app.ts";

export type Reached = { status: number; type: string; body: string };

/** Every address a page refers to: links, pictures, styles, and the link preview tags' URLs. */
export function addressesIn(html: string, base: string): string[] {
  const found = [...html.matchAll(/\b(?:href|src|content)="([^"]*)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
  return found
    .map((a) => (a.startsWith(base) ? a.slice(base.length) : a))
    .filter((a) => a.startsWith("/") && !a.startsWith("//"));
}

/** What a stranger reaches from `start` and the `also` addresses, `most` addresses at the most. */
export async function walk(t: TestApp, start: string, also: string[], most: number): Promise<Map<string, Reached>> {
  const base = t.config.baseUrl;
  const seen = new Map<string, Reached>();
  const queue = [start, ...also];
  while (queue.length > 0 && seen.size < most) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    let res = await t.request(path, { headers: { accept: "text/html" } });
    if (res.status === 429) {
      t.clock.advance(60_000);
      res = await t.request(path, { headers: { accept: "text/html" } });
    }
    const type = res.headers.get("content-type") ?? "";
    const body = /^(text|application\/json|image\/svg)/.test(type) ? await res.text() : "";
    seen.set(path, { status: res.status, type, body });
    if (path.startsWith(start) && type.startsWith("text/html")) queue.push(...addressesIn(body, base));
  }
  return seen;
}
