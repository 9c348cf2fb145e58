// GET /u/<name> (a page its owner made findable, or the owner's own page through its page token)
// and GET /s/<key> (a share link: never cached, never indexed; a rotated key answers 404).
// A page that does not exist for this visitor answers exactly like a name nobody holds.
// What only the owner gets (the page link spent, their parts of the page, the CSV) is owner-page.ts.
import { Elysia } from "elysia";
import { listView, statsView, type PageFrame } from "./stats-reads.ts";
import { accountByName, accountByPageCookie, accountByShareKey, type Account } from "../accounts/accounts.ts";
import { listProfiles, profilesState } from "../stats/fold.ts";
import {
  namePageSecret,
  profileHandle,
  shownProfile,
  type HandleOf,
  type Profiles,
  type StatsPageDeps,
} from "./stats-page.ts";
import { htmlPage } from "./respond.ts";
import { sync } from "./layout.tsx";
import { StatsPage, type StatsView } from "./stats-view.tsx";
import type { KeyFigure } from "./key-figure.ts";
import { KeyListPage } from "./key-list-view.tsx";
import { NotFoundPage } from "./not-found.tsx";
import { statsPreview } from "../cards/preview.tsx";
import type { ExportGate } from "../stats/export-gate.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { clientAddress } from "../http/client-address.ts";
import { etagMatches } from "../http/etag.ts";
import { renderBudget } from "./page-cache.ts";
import { pageParams, pageParamsKey, type PageParams } from "./page-params.ts";
import { cookieOf, PAGE_COOKIE } from "./page-cookie.ts";
import { dressOwnPage, ownerCsv, spendPageLink } from "./owner-page.ts";

const NAME = /^[A-Za-z0-9_]{1,16}$/;
const SHARE_KEY = /^[A-Za-z0-9_-]{16,64}$/;

/** The page a visitor asked for: the statistics page, or a list (?group=, ?q=, ?sort=); null: no such group. */
async function pageOf(
  deps: Omit<StatsPageDeps, "pages">,
  account: Account,
  params: PageParams,
  page: PageFrame,
  handleOf: HandleOf,
  profiles: Profiles | undefined,
  dress: (view: StatsView & { all: { p: readonly KeyFigure[]; a: readonly KeyFigure[] } }) => Promise<void> | void,
): Promise<string | null> {
  if (params.list !== null) {
    const list = await listView(deps, account, params, page, handleOf, profiles);
    if (!list) return null;
    const title = list.list.group ?? (list.ask.q ? `“${list.ask.q}”` : "Figures");
    return sync(KeyListPage({ ...list, title: `${title}: ${page.title}` }));
  }
  const view = await statsView(deps, account, params, page, handleOf, profiles);
  await dress(view);
  return sync(StatsPage(view));
}

/** `exports`: the instance's one gate of running exports (shared with GET /v1/stats/export.csv). */
export function statsPageRoutes(deps: StatsPageDeps & { exports: ExportGate }) {
  const secure = deps.config.baseUrl.startsWith("https://");
  const notFound = (request: Request) =>
    htmlPage(request, sync(NotFoundPage()), { status: 404, cacheControl: "no-store" });

  const hide = { detail: { hide: true } };
  const limit = { name: "pages", perWindow: deps.config.pageRateLimit, windowMs: 60_000 };
  const cache = deps.pages;
  /** A render of one account's page, within that account's render budget (whoever asks). */
  const budget = renderBudget(deps);
  /** A page others see: its link preview tags (`name` null: a share page, which shows no name). */
  const previewed = <V extends StatsView>(view: V, account: Account, name: string | null) => {
    view.preview = statsPreview(deps.config.baseUrl, view.headline!, {
      name,
      pagePath: view.path,
      version: account.lastUploadAt,
    });
    return view;
  };
  /**
   * A page of someone else's statistics (findable, or a share link): the kept copy while the account
   * has not uploaded, changed a setting or erased its statistics since, else rendered and kept; 304
   * to a browser holding it.
   */
  const cachedPage = async (
    request: Request,
    account: Account,
    url: URL,
    render: (params: PageParams, profiles: Profiles) => Promise<string | null>,
    opts: {
      notFound: () => Response;
      cacheControl: string;
      noindex: boolean;
      handleOf: HandleOf;
      headers?: Record<string, string>;
    },
  ) => {
    // Erasing the statistics keeps the account row as it is but takes its profiles: they are in the
    // key too, so an erased page is never answered from a kept copy.
    const profiles = await listProfiles(deps.db, account.uuid);
    const held = profilesState(profiles);
    // The key holds the parameters the page uses, as it uses them (page-params.ts), nothing else of
    // the query string.
    const params = pageParams(url);
    const shown = shownProfile(profiles, params.profile, opts.handleOf)?.id ?? null;
    const key = `${url.pathname}|${account.uuid}|${account.lastUploadAt ?? ""}|${account.settingsVersion}|${held}|${pageParamsKey(params, shown)}`;
    const page = await cache.fetch(key, () => budget(account.uuid, () => render(params, profiles)));
    if (!page) return opts.notFound();
    const headers = { etag: page.etag, "cache-control": opts.cacheControl, ...opts.headers };
    if (etagMatches(request.headers.get("if-none-match"), page.etag))
      return new Response(null, {
        status: 304,
        headers: { ...headers, ...(opts.noindex ? { "x-robots-tag": "noindex" } : {}) },
      });
    return htmlPage(request, page.html, { cacheControl: opts.cacheControl, noindex: opts.noindex, headers });
  };
  return new Elysia({ name: "tally.web.stats" })
    .get(
      "/u/:name",
      async ({ params, request, server }) => {
        await enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy));
        const url = new URL(request.url);
        const name = params.name;
        if (!NAME.test(name)) return notFound(request);
        const now = deps.clock.now();

        // A page link from the mod: spent for a cookie, then the clean address (owner-page.ts).
        const token = url.searchParams.get("t");
        if (token !== null) return (await spendPageLink(deps, token, name, now, secure)) ?? notFound(request);

        const cookie = cookieOf(request, PAGE_COOKIE);
        const own = cookie && cookie.length <= 64 ? await accountByPageCookie(deps.db, cookie, now) : undefined;
        const holder = await accountByName(deps.db, name);
        const account =
          own && own.name.toLowerCase() === name.toLowerCase() ? own : holder?.findable ? holder : undefined;
        if (!account) return notFound(request);
        const isOwn = own?.uuid === account.uuid;
        const handleOf = profileHandle(namePageSecret(account));
        const page = {
          title: `${account.name}'s statistics`,
          heading: `${account.name}'s statistics`,
          path: `/u/${encodeURIComponent(account.name)}`,
          noindex: !account.findable,
        };
        if (!isOwn)
          return cachedPage(
            request,
            account,
            url,
            (params, profiles) =>
              pageOf(deps, account, params, page, handleOf, profiles, (view) => {
                previewed(view, account, account.name);
              }),
            {
              notFound: () => notFound(request),
              handleOf,
              cacheControl: account.findable ? "public, max-age=60" : "private, no-store",
              noindex: !account.findable,
              headers: { vary: "accept-encoding, cookie" },
            },
          );
        // The owner's own page is never kept, but costs its render like any other.
        const asked = pageParams(url);
        const html = await budget(account.uuid, () =>
          pageOf(
            deps,
            account,
            asked,
            {
              ...page,
              ownerCsv: `/u/${encodeURIComponent(account.name)}/export.csv`,
              ownerRecaps: `/u/${encodeURIComponent(account.name)}/recap`,
              notice: !account.findable
                ? "This is your own page. Only you can open it: it is not findable by name, and this browser keeps it open for a short while."
                : undefined,
            },
            handleOf,
            undefined,
            async (view) => {
              // A findable page tells link unfurlers what it shows; the owner gets the owner's parts.
              if (account.findable) previewed(view, account, account.name);
              await dressOwnPage(deps, view, account, cookie!);
            },
          ),
        );
        if (html === null) return notFound(request);
        // The owner's own page: never kept, never cached by the browser.
        return htmlPage(request, html, {
          cacheControl: "private, no-store",
          noindex: !account.findable,
          headers: { vary: "accept-encoding, cookie" },
        });
      },
      hide,
    )
    .get(
      "/s/:key",
      async ({ params, request, server }) => {
        await enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy));
        const hidden = { cacheControl: "no-store", noindex: true } as const;
        const missing = () => htmlPage(request, sync(NotFoundPage({ noindex: true })), { status: 404, ...hidden });
        const key = params.key;
        // A rotated key finds no account here, so no kept copy of its page is ever answered.
        const account = SHARE_KEY.test(key) ? await accountByShareKey(deps.db, key) : undefined;
        if (!account) return missing();
        const url = new URL(request.url);
        const page = { title: "Shared statistics", heading: "Shared statistics", path: `/s/${key}`, noindex: true };
        // Profiles by a handle made with the share key: the page and its links name nobody (issue 34).
        const handleOf = profileHandle(`tally share ${key}`);
        return cachedPage(
          request,
          account,
          url,
          (params, profiles) =>
            pageOf(deps, account, params, page, handleOf, profiles, (view) => {
              previewed(view, account, null);
            }),
          {
            notFound: missing,
            handleOf,
            ...hidden,
          },
        );
      },
      hide,
    )
    .get(
      "/u/:name/export.csv",
      async ({ params, request }) => (await ownerCsv(deps, params.name, request)) ?? notFound(request),
      hide,
    );
}
