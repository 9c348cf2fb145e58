// `tally reports versions`: release health in the terminal, the same table as the page (every
// version's active installs, share, reports and reports per 1 000 active installs a day over the
// window) and the newest version against the one before.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { plainLine, table } from "./plain-text.ts";
import { ComparisonText, rateText, releaseHealth, WINDOW_DAYS } from "./release-health.ts";

export async function versionsTable(deps: { db: Db; clock: Clock; config: Pick<Config, "releaseHealthDays"> }) {
  const h = await releaseHealth(deps);
  const caveat = `Counts only installs with statistics on (an install is active on a UTC day when it uploaded from that version); kept ${deps.config.releaseHealthDays} days.`;
  if (!h.summaries.length) return `no upload has named a mod version yet\n${caveat}\n`;
  const rows = h.summaries.map((s) => [
    plainLine(s.version),
    s.firstDay,
    String(s.installs),
    s.installsDay === h.today ? `${s.installsDay} (so far)` : s.installsDay,
    `${Math.round(s.share * 100)}%`,
    String(s.reports),
    rateText(s.rate),
  ]);
  const head = [
    "version",
    "first seen",
    "active installs",
    "on (UTC)",
    "share",
    `reports (${WINDOW_DAYS} d)`,
    "per 1 000 installs a day",
  ];
  return [
    ...table(head, rows),
    "",
    ...(h.comparison ? [plainLine(ComparisonText(h.comparison))] : []),
    caveat,
    "",
  ].join("\n");
}
