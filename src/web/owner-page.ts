// What only a page's owner gets from /u/<name>: the page link from the mod spent for a cookie of its
// own kind, the owner's parts of the page (badge snippets, page tokens, the headline form), and the
// CSV export through that cookie. stats.routes.tsx answers the page itself.
import { accountByName, accountByPageCookie, mintPageToken, takePageLink, type Account } from "../accounts/accounts.ts";
import { csvHeaders, csvStream } from "../stats/export-csv.ts";
import type { ExportGate } from "../stats/export-gate.ts";
import { BadgeSnippets } from "../cards/preview.tsx";
import { sync } from "./layout.tsx";
import { HeadlineForm } from "./headline-view.tsx";
import type { StatsView } from "./stats-view.tsx";
import type { KeyFigure } from "./key-figure.ts";
import type { StatsPageDeps } from "./stats-page.ts";
import { cookieOf, PAGE_COOKIE, pageCookieHeader } from "./page-cookie.ts";
import { ownerTokens } from "./tokens-page.routes.tsx";

const NAME = /^[A-Za-z0-9_]{1,16}$/;

/**
 * A page link from the mod (`?t=`): spent for a cookie of its own kind (which ends at a fixed time
 * and is never taken as a link), answered with the clean address; a spent or unknown link goes to the
 * clean address of a findable page. null: the page that does not exist.
 */
export async function spendPageLink(
  deps: Omit<StatsPageDeps, "pages">,
  token: string,
  name: string,
  now: number,
  secure: boolean,
): Promise<Response | null> {
  const maxAgeMs = deps.config.pageCookieTtlMs;
  const traded =
    token.length <= 64
      ? await deps.db.transaction(async (tx) => {
          // Only a link of the page named: another account's link is left as it was.
          const link = await takePageLink(tx, token, now, name);
          if (!link) return undefined;
          const cookie = await mintPageToken(
            tx,
            { uuid: link.account.uuid, sessionId: link.sessionId, kind: "cookie" },
            now,
            maxAgeMs,
          );
          return { owner: link.account, pageToken: cookie.token };
        })
      : undefined;
  if (traded) {
    const { owner, pageToken } = traded;
    const cookie = pageCookieHeader(owner.name, pageToken, maxAgeMs, secure);
    return new Response(null, {
      status: 303,
      headers: {
        location: `/u/${encodeURIComponent(owner.name)}`,
        "set-cookie": cookie,
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
      },
    });
  }
  const holder = await accountByName(deps.db, name);
  if (!holder?.findable) return null;
  return new Response(null, {
    status: 303,
    headers: { location: `/u/${encodeURIComponent(holder.name)}`, "cache-control": "no-store" },
  });
}

/** The owner's parts of their own page: badge snippets, their page tokens, the headline form. */
export async function dressOwnPage(
  deps: Omit<StatsPageDeps, "pages">,
  view: StatsView & { all: { p: readonly KeyFigure[]; a: readonly KeyFigure[] } },
  account: Account,
  cookie: string,
) {
  const h = view.headline!;
  const figures = h.keys.map((key, i) => ({ key, label: h.figures[i]!.label }));
  view.badges = sync(
    BadgeSnippets({
      baseUrl: deps.config.baseUrl,
      name: account.name,
      findable: account.findable,
      figures,
    }),
  );
  view.tokens = await ownerTokens(deps, account, cookie);
  // The owner chooses the headline among the figures the page shows and those chosen before.
  const chosen = account.headlineKeys;
  view.headlineForm = sync(
    HeadlineForm({
      action: `/u/${encodeURIComponent(account.name)}/headline`,
      chosen,
      figures: [
        ...view.profileKeys,
        ...view.accountKeys,
        ...[...view.all.p, ...view.all.a].filter((f) => chosen.includes(f.key)),
      ],
    }),
  );
}

/**
 * The owner's CSV export, through the page cookie (its Path is /u/): the same file as
 * GET /v1/stats/export.csv. null (anyone else): the page that does not exist.
 */
export async function ownerCsv(
  deps: Omit<StatsPageDeps, "pages"> & { exports: ExportGate },
  name: string,
  request: Request,
): Promise<Response | null> {
  const cookie = cookieOf(request, PAGE_COOKIE);
  const own =
    NAME.test(name) && cookie && cookie.length <= 64
      ? await accountByPageCookie(deps.db, cookie, deps.clock.now())
      : undefined;
  if (!own || own.name.toLowerCase() !== name.toLowerCase()) return null;
  const stream = await deps.exports.open(own.uuid, request.signal, (end) =>
    csvStream(deps.db, own.uuid, deps.config.exportPageRows, end),
  );
  return new Response(stream, { headers: { ...csvHeaders(own.uuid), vary: "cookie" } });
}
