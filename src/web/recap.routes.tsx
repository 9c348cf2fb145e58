// Recap pages (issue 35). The owner's, through the page cookie of their page (its Path covers
// /u/<name>/recap): GET /u/<name>/recap (the list), GET /u/<name>/recap/<2026-10 | 2026>, and the
// owner's share actions, POST .../share and .../unshare (a form of the page: SameSite=Lax keeps the
// cookie off another site's POST, and the Origin must be this service's). A shared recap at
// GET /r/<key> and its card /r/<key>/card.png name nobody. Anything else answers the page that does
// not exist, exactly like a name nobody holds.
import { Elysia } from "elysia";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { ItemNames } from "../items/item-names.ts";
import type { WorkGate } from "../http/work-gate.ts";
import type { Account } from "../accounts/accounts.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { clientAddress } from "../http/client-address.ts";
import { recapPeriods, revokeRecap, shareRecap, sharedRecap, storedRecap } from "../recaps/recaps.ts";
import { recapPeriod } from "../recaps/recap-period.ts";
import { addDays } from "../wire/day.ts";
import { formatDay } from "./format.ts";
import { htmlPage } from "./respond.ts";
import { Layout, esc, sync } from "./layout.tsx";
import { NotFoundPage } from "./not-found.tsx";
import { pageOwner } from "./page-cookie.ts";
import { RecapPage, type RecapView } from "./recap-view.tsx";
import { periodWords } from "./recap-words.ts";
import type { Boards } from "../boards/definitions.ts";
import { recapCardPng } from "./recap-card.ts";

export type RecapPageDeps = {
  db: Db;
  clock: Clock;
  catalogue: Catalogue;
  items?: ItemNames;
  renders: WorkGate;
  /** The boards, for the placements' titles. */
  boards?: Boards;
  config: Pick<Config, "baseUrl" | "pageRateLimit" | "trustProxy">;
};

/** A recap's share key: 24 random bytes, base64url. */
const RECAP_KEY = /^[A-Za-z0-9_-]{32}$/;

const hide = { detail: { hide: true } };
const privately = { cacheControl: "private, no-store", noindex: true, headers: { vary: "cookie" } } as const;

export function recapPageRoutes(deps: RecapPageDeps) {
  const limit = { name: "pages", perWindow: deps.config.pageRateLimit, windowMs: 60_000 };
  const origin = new URL(deps.config.baseUrl).origin;
  const notFound = (request: Request) =>
    htmlPage(request, sync(NotFoundPage({ noindex: true })), { status: 404, cacheControl: "no-store", noindex: true });
  const limited = (request: Request, server: unknown) =>
    enforceRateLimit(deps, limit, clientAddress(request, server as never, deps.config.trustProxy));

  /** The page's owner, when this browser holds the cookie of `name`'s page. */
  const ownerOf = (request: Request, name: string) => pageOwner(deps, request, name);
  const base = (a: Account) => `/u/${encodeURIComponent(a.name)}/recap`;
  const items = async () => deps.items?.current();
  /** The recap a share link opens (none for a key of the wrong shape: no read). */
  const shared = async (key: string) => (RECAP_KEY.test(key) ? sharedRecap(deps.db, key) : null);
  /** A recap's page, by the owner or shared: its title says the period, `more` what only one of them shows. */
  const renderRecap = (
    body: RecapView["body"],
    period: string,
    path: string,
    more: Partial<Pick<RecapView, "owner" | "preview">>,
  ) =>
    deps.renders.run(async () =>
      sync(
        RecapPage({
          catalogue: deps.catalogue,
          items: await items(),
          body,
          title: `${periodWords(period)} in review`,
          path,
          boardTitle: (id) => deps.boards?.byId.get(id)?.title,
          ...more,
        }),
      ),
    );

  /** The owner's recap, or a page saying when it will be made (the open period is not shown). */
  const ownerRecap = async (request: Request, own: Account, id: string) => {
    const p = recapPeriod(id);
    if (!p) return notFound(request);
    const [row, periods] = await Promise.all([storedRecap(deps.db, own.uuid, id), recapPeriods(deps.db, own.uuid)]);
    if (!row) {
      const html = sync(
        <Layout title={`${periodWords(id)} in review`} noindex>
          <h1>{esc(periodWords(id))} in review</h1>
          <p>
            There is no recap of {esc(periodWords(id))}. A recap is made once its period has ended in your time zone and
            the day after it has passed (from {esc(formatDay(addDays(p.to, 2)))}), if you recorded anything in it.
          </p>
          <p>
            <a href={base(own)}>Your recaps</a>
          </p>
        </Layout>,
      );
      return htmlPage(request, html, { status: 404, ...privately });
    }
    const html = await renderRecap(row.body, id, `${base(own)}/${id}`, {
      owner: {
        action: `${base(own)}/${id}/${row.shareKey ? "unshare" : "share"}`,
        shared: row.shareKey ? `/r/${row.shareKey}` : null,
        periods: periods.map((x) => ({
          period: x.period,
          href: `${base(own)}/${x.period}`,
          current: x.period === id,
        })),
      },
    });
    return htmlPage(request, html, privately);
  };

  /** share / unshare: the owner's form only (cookie, then Origin); back to the recap. */
  const action =
    (share: boolean) =>
    async ({
      params,
      request,
      server,
    }: {
      params: { name: string; period: string };
      request: Request;
      server: unknown;
    }) => {
      await limited(request, server);
      const own = await ownerOf(request, params.name);
      if (!own || !recapPeriod(params.period)) return notFound(request);
      if (request.headers.get("origin") !== origin) {
        const html = sync(
          <Layout title="Refused" noindex>
            <h1>Refused</h1>
            <p>Sharing is changed only from the recap's own page on this site.</p>
          </Layout>,
        );
        return htmlPage(request, html, { status: 403, ...privately });
      }
      const done = share
        ? (await shareRecap(deps.db, own.uuid, params.period)) !== null
        : await revokeRecap(deps.db, own.uuid, params.period);
      if (!done) return notFound(request);
      return new Response(null, {
        status: 303,
        headers: { location: `${base(own)}/${params.period}`, "cache-control": "no-store" },
      });
    };

  return new Elysia({ name: "tally.web.recaps" })
    .get(
      "/u/:name/recap",
      async ({ params, request, server }) => {
        await limited(request, server);
        const own = await ownerOf(request, params.name);
        if (!own) return notFound(request);
        const periods = await recapPeriods(deps.db, own.uuid);
        const html = sync(
          <Layout title="Your recaps" noindex>
            <h1>Your recaps</h1>
            <p class="muted">
              A month and a year in review, made once each has ended in your time zone. Only you see them until you
              share one.
            </p>
            {periods.length === 0 ? (
              <p>No recap yet: the first is made after the first month you record anything in.</p>
            ) : (
              <ul class="tabs">
                {periods.map((x) => (
                  <li>
                    <a href={`${base(own)}/${x.period}`}>
                      {esc(periodWords(x.period))}
                      {x.shareKey ? " (shared)" : ""}
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </Layout>,
        );
        return htmlPage(request, html, privately);
      },
      hide,
    )
    .get(
      "/u/:name/recap/:period",
      async ({ params, request, server }) => {
        await limited(request, server);
        const own = await ownerOf(request, params.name);
        return own ? ownerRecap(request, own, params.period) : notFound(request);
      },
      hide,
    )
    .post("/u/:name/recap/:period/share", action(true), hide)
    .post("/u/:name/recap/:period/unshare", action(false), hide)
    .get(
      "/r/:key",
      async ({ params, request, server }) => {
        await limited(request, server);
        const row = await shared(params.key);
        if (!row) return notFound(request);
        const title = `${periodWords(row.period)} in review`;
        const path = `/r/${params.key}`;
        const html = await renderRecap(row.body, row.period, path, {
          preview: {
            title,
            description: `A player's ${periodWords(row.period)} in review on tally.`,
            image: `${deps.config.baseUrl}${path}/card.png`,
            imageAlt: `${title}: active days, longest streak, longest session and top gain.`,
            url: `${deps.config.baseUrl}${path}`,
          },
        });
        return htmlPage(request, html, { cacheControl: "no-store", noindex: true });
      },
      hide,
    )
    .get(
      "/r/:key/card.png",
      async ({ params, request, server }) => {
        await limited(request, server);
        const row = await shared(params.key);
        if (!row) return notFound(request);
        const png = await deps.renders.run(async () => recapCardPng(deps.catalogue, row.body, await items()));
        return new Response(png as Uint8Array<ArrayBuffer>, {
          headers: { "content-type": "image/png", "cache-control": "no-store", "x-robots-tag": "noindex" },
        });
      },
      hide,
    );
}
