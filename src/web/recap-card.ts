// A shared recap's card for link previews (Discord and others): the cards' own SVG and renderer
// (src/cards/), never naming the player: tally's mark, the period, four figures in words and the
// chart's bars.
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { ItemNamer } from "../items/item-names.ts";
import { cardSvg } from "../cards/card-svg.ts";
import { svgToPng } from "../cards/render.ts";
import { describeKey } from "../stats/fold.ts";
import type { RecapBody } from "../recaps/recap-body.ts";
import { formatLength, formatNumber, formatValue } from "./format.ts";
import { periodWords } from "./recap-words.ts";

export function recapCardSvg(catalogue: Catalogue, body: RecapBody, items?: ItemNamer): string {
  const r = body.account;
  const days = Math.round((Date.parse(body.to) - Date.parse(body.from)) / 86_400_000) + 1;
  const top = r.topGains.flatMap((g) => g.gains)[0] ?? body.profiles.flatMap((x) => x.recap.topGains)[0]?.gains[0];
  const figures = [
    { label: "Active days", value: `${formatNumber(r.activeDays)} of ${formatNumber(days)}` },
    {
      label: "Longest streak",
      value: r.longestStreak
        ? `${formatNumber(r.longestStreak.days)} day${r.longestStreak.days === 1 ? "" : "s"}`
        : "none",
    },
    { label: "Longest session", value: r.longestSession ? formatLength(r.longestSession.ms) : "none recorded" },
    top
      ? { label: describeKey(catalogue, top.key, items).label, value: formatValue(catalogue, top.unit, top.value) }
      : { label: "Personal bests", value: formatNumber(r.personalBests.count) },
  ];
  const month = body.period.length === 7;
  return cardSvg({
    // The card's title line: the period, never a name (a shared recap names nobody).
    name: `${periodWords(body.period)} in review`,
    subtitle: "A tally recap, shared by its owner",
    head: null,
    figures,
    spark: {
      caption: month ? "Figures recorded per day" : "Active days per month",
      values: r.perStep.map((n) => (month && n === 0 ? null : n)),
      bars: true,
    },
  });
}

export const recapCardPng = (catalogue: Catalogue, body: RecapBody, items?: ItemNamer) =>
  svgToPng(recapCardSvg(catalogue, body, items));
