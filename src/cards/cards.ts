// The link preview cards: what a statistics page's or a profile page's card shows, and its PNG.
// The card is first built as SVG text from the current figures (a few indexed reads, as the page
// makes); the PNG is rendered only when that text is new. Rendered PNGs are kept in process,
// keyed by the text's hash, at most CARD_CACHE_ENTRIES of them (least recently used goes first),
// so a card changes the moment its numbers, name or head change and costs a render once per change.
// The head comes through the image proxy's own code (its Postgres cache, else its upstreams under
// their budgets); the renderer is handed the head's bytes and fetches nothing.
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { Account } from "../accounts/accounts.ts";
import { chartSeries, latestProfile, listProfiles } from "../stats/fold.ts";
import { lifetimeState, type LifetimeMemo } from "../stats/lifetime-memo.ts";
import type { WorkGate } from "../http/work-gate.ts";
import { ACCOUNT_PROFILE } from "../wire/envelope.ts";
import { addDays, dayIn } from "../wire/day.ts";
import { imageProxy, type AssetDeps } from "../assets/image-proxy.ts";
import { defaultHead } from "../assets/head.ts";
import type { ProfileLookup } from "../profiles/profile-source.ts";
import type { Config } from "../config.ts";
import { formatNumber } from "../web/format.ts";
import { cardSvg, type CardContent, type CardFigure } from "./card-svg.ts";
import { candidatesOf, headline, SPARK_DAYS, type Candidate, type Headline } from "./headline.ts";
import { svgToPng } from "./render.ts";
import { readsOf, type Db } from "../db/database.ts";
import { leadingFigures } from "../web/key-list.ts";
import { renderBudget } from "../web/page-cache.ts";
import type { ItemNames } from "../items/item-names.ts";

export type CardDeps = AssetDeps & {
  catalogue: Catalogue;
  /** Every key's lifetime figure, shared with the statistics pages (read once per upload). */
  lifetimes: LifetimeMemo;
  /** The instance's page, card and badge renders, taking turns (PAGE_RENDERS_AT_ONCE). */
  renders: WorkGate;
  /** The game's item names: a card names items as the page does (absent: ids in words). */
  items?: ItemNames;
  config: AssetDeps["config"] & Pick<Config, "cardCacheEntries" | "pageRenderBudgetMs" | "pageStatementTimeoutMs">;
};

export type RenderedCard = { png: Uint8Array; etag: string };

/**
 * How long a statistics card answers without reading the figures again while the account's last
 * upload, settings, name and day are unchanged (an upload, a settings change or a new day shows at
 * once; an erasure or a new head within this long).
 */
export const CARD_RECHECK_MS = 60_000;

/** Keeps at most `max` entries, dropping the least recently used. */
export function lru<V>(max: number) {
  const map = new Map<string, V>();
  return {
    get(key: string): V | undefined {
      const v = map.get(key);
      if (v !== undefined) {
        map.delete(key);
        map.set(key, v);
      }
      return v;
    },
    set(key: string, v: V) {
      if (max <= 0) return;
      map.delete(key);
      map.set(key, v);
      while (map.size > max) map.delete(map.keys().next().value!);
    },
    get size() {
      return map.size;
    },
  };
}

/** The headline of an account's statistics: its latest profile and the whole account, last 30 days. */
export async function accountHeadline(
  deps: Pick<CardDeps, "db" | "clock" | "catalogue" | "lifetimes" | "items"> & {
    config: Pick<Config, "pageStatementTimeoutMs">;
  },
  account: Account,
) {
  const profiles = await listProfiles(deps.db, account.uuid);
  const latest = latestProfile(profiles);
  const today = dayIn(account.zone, deps.clock.now());
  const items = await deps.items?.current();
  const fold = (db: Db) => ({ db, catalogue: deps.catalogue, items });
  const scopes = latest ? [latest.id, ACCOUNT_PROFILE] : [ACCOUNT_PROFILE];
  // The candidates are each scope's leading figures, as the page shows them (issue 40: a card reads
  // the days of those keys, not of every key the account holds).
  const state = lifetimeState(account, profiles);
  const timeout = deps.config.pageStatementTimeoutMs;
  const lifetimes = await readsOf(
    deps.db,
    timeout,
    ...scopes.map((scope) => (db: Db) => deps.lifetimes.figures(fold(db), account.uuid, scope, state)),
  );
  // The player's chosen figures are candidates too, wherever they rank in their group.
  const chosen = account.headlineKeys;
  const keys = lifetimes.map((all) => leadingFigures(all).shown);
  const charted = [...new Set([...keys.flat().map((k) => k.key), ...chosen])];
  const [charts] = await readsOf(deps.db, timeout, (db) =>
    chartSeries(fold(db), account.uuid, scopes, addDays(today, -(SPARK_DAYS - 1)), today, charted),
  );
  const candidates: Candidate[] = scopes.flatMap((scope, i) =>
    candidatesOf(keys[i]!, lifetimes[i]!, chosen, (key) => charts.get(scope)?.get(key)),
  );
  return { headline: headline(deps.catalogue, candidates, today, chosen), profile: latest };
}

/** The figures a public profile page's card shows, from its selected (else first) profile. */
function profileFigures(lookup: ProfileLookup): { figures: CardFigure[]; cuteName: string | null } {
  const p = lookup.profiles.find((x) => x.selected) ?? lookup.profiles[0];
  if (!p) return { figures: [], cuteName: null };
  const rows: [string, number | undefined, string][] = [
    ["SkyBlock experience", p.skyblockXp, ""],
    ["Purse", p.purse, " coins"],
    ["Bank", p.bankBalance, " coins"],
    ["Fairy souls", p.fairySouls, ""],
  ];
  return {
    figures: rows
      .filter((r): r is [string, number, string] => r[1] !== undefined)
      .map(([label, value, unit]) => ({ label, value: formatNumber(value) + unit })),
    cuteName: p.cuteName ?? null,
  };
}

export function cardRenderer(deps: CardDeps) {
  const proxy = imageProxy(deps);
  const max = deps.config.cardCacheEntries;
  const cache = lru<RenderedCard>(max);
  /** The card last answered for an account's state (its upload, settings, name, day), and when. */
  const checked = lru<{ card: RenderedCard; at: number }>(max);
  const inFlight = new Map<string, Promise<RenderedCard>>();
  const budget = renderBudget(deps);

  async function headOf(uuid: string): Promise<Uint8Array> {
    try {
      return (await proxy.head(uuid)).png;
    } catch (e) {
      deps.log.warn("card: head unavailable, drawing the default head", { reason: String(e) });
      return defaultHead();
    }
  }

  /** The card's PNG: from the cache when this exact card (its SVG text) was rendered before. */
  async function png(svg: string): Promise<RenderedCard> {
    const etag = `"card-${new Bun.CryptoHasher("sha256").update(svg).digest("hex").slice(0, 32)}"`;
    const hit = cache.get(etag);
    if (hit) return hit;
    let pending = inFlight.get(etag);
    if (!pending) {
      pending = svgToPng(svg).then((bytes) => {
        const card = { png: bytes, etag };
        cache.set(etag, card);
        return card;
      });
      inFlight.set(etag, pending);
      pending.finally(() => inFlight.delete(etag)).catch(() => {});
    }
    return pending;
  }

  async function statsSvg(account: Account, opts: { anonymous: boolean }): Promise<string> {
    const [{ headline: h, profile }, head] = await Promise.all([
      accountHeadline(deps, account),
      opts.anonymous ? null : headOf(account.uuid),
    ]);
    return cardSvg(statsContent(h, profile?.cuteName ?? null, opts.anonymous ? null : account.name, head));
  }

  return {
    /** An account's statistics card; a share page's (`anonymous`) says neither the name nor shows the head. */
    async stats(account: Account, opts: { anonymous: boolean }): Promise<RenderedCard> {
      const now = deps.clock.now();
      const state = [
        account.uuid,
        account.lastUploadAt,
        account.settingsVersion,
        account.name,
        opts.anonymous,
        dayIn(account.zone, now),
      ].join("|");
      const seen = checked.get(state);
      if (seen && now - seen.at < CARD_RECHECK_MS && now >= seen.at) return seen.card;
      // Read and drawn within the account's render budget, like its pages.
      const card = await budget(account.uuid, async () => png(await statsSvg(account, opts)));
      checked.set(state, { card, at: now });
      return card;
    },
    /** The text of an account's statistics card before it is drawn: every word the PNG shows. */
    statsSvg,
    /** A public profile page's card: head, name, the selected profile's figures (no series: none is kept). */
    async profile(player: { uuid: string; name: string }, lookup: ProfileLookup): Promise<RenderedCard> {
      const { figures, cuteName } = profileFigures(lookup);
      return png(
        cardSvg({
          name: player.name,
          subtitle: cuteName ? `SkyBlock profile ${cuteName}` : "SkyBlock profile",
          head: await headOf(player.uuid),
          figures,
          spark: null,
        }),
      );
    },
    /**
     * A board rank's card (issue 35): head, name, the place in words and the score. Drawn within
     * the player's render budget; the PNG is rendered once per distinct card (its SVG's hash).
     */
    async rank(
      player: { uuid: string; name: string },
      content: { subtitle: string; figures: CardFigure[] },
    ): Promise<RenderedCard> {
      return budget(player.uuid, async () =>
        png(
          cardSvg({
            name: player.name,
            subtitle: content.subtitle,
            head: await headOf(player.uuid),
            figures: content.figures,
            spark: null,
          }),
        ),
      );
    },
    /** Cards held in memory now (tests and metrics). */
    cached: () => cache.size,
  };
}

function statsContent(h: Headline, cuteName: string | null, name: string | null, head: Uint8Array | null): CardContent {
  const what = name ? "SkyBlock statistics" : "SkyBlock statistics shared from tally";
  return {
    name,
    subtitle: cuteName && name ? `${what} · ${cuteName}` : what,
    head,
    figures: h.figures,
    spark: h.spark,
  };
}
