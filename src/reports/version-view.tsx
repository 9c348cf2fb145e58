// Release health pages: every mod version's adoption and reports per 1 000 active installs, the
// newest against the one before, and one version in detail (its adoption curve, its days, its
// problems with the new ones marked). Counts only installs with statistics on: the page says so.
import { esc, sync } from "../web/layout.tsx";
import { Chart } from "../web/chart.tsx";
import { formatDay, formatNumber } from "../web/format.ts";
import type { VersionDay, VersionProblem } from "./release-health.query.ts";
import {
  ComparisonText,
  per1000,
  rateText,
  WINDOW_DAYS,
  type Comparison,
  type VersionSummary,
} from "./release-health.ts";
import { AdminLayout } from "./admin-layout.tsx";

const pct = (share: number) => `${Math.round(share * 100)}%`;
const versionHref = (v: string) => `/admin/versions/${encodeURIComponent(v)}`;

function Caveat(p: { days: number }): string {
  return sync(
    <p class="note">
      Counts only installs with statistics on: an install is active on a day (UTC) when it uploaded from that mod
      version. Players without statistics are not counted, so reports per 1 000 installs is an estimate. Kept for{" "}
      {String(p.days)} days.
    </p>,
  );
}

function Nav(p: { here: "versions" | "version" }): string {
  return sync(
    <nav class="admin-nav">
      <a href="/admin/reports">Problems</a> ·{" "}
      {p.here === "versions" ? <strong>Release health</strong> : <a href="/admin/versions">Release health</a>} ·{" "}
      <a href="/admin/boards">Boards</a>
    </nav>,
  );
}

export function VersionsPage(v: {
  summaries: VersionSummary[];
  comparison?: Comparison;
  csrf: string;
  days: number;
  today: string;
}): string {
  return AdminLayout({
    title: "Release health",
    csrf: v.csrf,
    children: sync(
      <>
        {Nav({ here: "versions" }) as "safe"}
        <h1>Release health</h1>
        {Caveat({ days: v.days }) as "safe"}
        {v.comparison ? (
          <section class="card admin-compare">
            <h2>Newest against the one before</h2>
            <p>{esc(ComparisonText(v.comparison))}</p>
          </section>
        ) : (
          ""
        )}
        {v.summaries.length ? (
          <div class="admin-scroll">
            <table class="admin-release">
              <thead>
                <tr>
                  <th scope="col">Mod version</th>
                  <th scope="col">First seen</th>
                  <th scope="col" class="num">
                    Active installs
                  </th>
                  <th scope="col" class="num">
                    Share
                  </th>
                  <th scope="col" class="num">
                    Reports, {String(WINDOW_DAYS)} days
                  </th>
                  <th scope="col" class="num">
                    Per 1 000 installs a day
                  </th>
                </tr>
              </thead>
              <tbody>
                {v.summaries.map((s) => (
                  <tr data-version={esc(s.version)}>
                    <td>
                      <a href={versionHref(s.version)}>{esc(s.version)}</a>
                    </td>
                    <td>{esc(formatDay(s.firstDay))}</td>
                    <td class="num">
                      {formatNumber(s.installs)}
                      <span class="admin-title muted">
                        {s.installsDay === v.today ? "today so far" : esc(formatDay(s.installsDay))}
                      </span>
                    </td>
                    <td class="num">{pct(s.share)}</td>
                    <td class="num">{formatNumber(s.reports)}</td>
                    <td class="num">{rateText(s.rate)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>No upload has named a mod version yet.</p>
        )}
      </>,
    ),
  });
}

export function VersionPage(v: {
  version: string;
  days: VersionDay[];
  from: string;
  to: string;
  problems: VersionProblem[];
  summary?: VersionSummary;
  csrf: string;
  keptDays: number;
}): string {
  const points = v.days.map((d) => ({ day: d.day, value: d.installs }));
  const isNew = (p: VersionProblem) => p.minVersion === v.version;
  const fresh = v.problems.filter(isNew).length;
  return AdminLayout({
    title: `Mod version ${v.version}`,
    csrf: v.csrf,
    children: sync(
      <>
        {Nav({ here: "version" }) as "safe"}
        <h1>Mod version {esc(v.version)}</h1>
        {Caveat({ days: v.keptDays }) as "safe"}
        {v.summary ? (
          <p>
            {formatNumber(v.summary.installs)} active installs on {esc(formatDay(v.summary.installsDay))} (
            {pct(v.summary.share)} of all); {formatNumber(v.summary.reports)} reports in the last {String(WINDOW_DAYS)}{" "}
            days, {rateText(v.summary.rate)} per 1 000 active installs a day. {String(fresh)} new problem
            {fresh === 1 ? "" : "s"} first reported from this version.
          </p>
        ) : (
          ""
        )}
        <section>
          <h2>Adoption</h2>
          {points.length
            ? (Chart({
                id: "adoption",
                label: "Active installs",
                from: v.from,
                to: v.to,
                points,
                fromZero: true,
                format: (n) => formatNumber(n),
              }) as "safe")
            : ""}
          <div class="admin-scroll">
            <table class="admin-release-days">
              <thead>
                <tr>
                  <th scope="col">Day (UTC)</th>
                  <th scope="col" class="num">
                    Active installs
                  </th>
                  <th scope="col" class="num">
                    Reports
                  </th>
                  <th scope="col" class="num">
                    Per 1 000 installs
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...v.days].reverse().map((d) => (
                  <tr>
                    <td>{esc(formatDay(d.day))}</td>
                    <td class="num">{formatNumber(d.installs)}</td>
                    <td class="num">{formatNumber(d.reports)}</td>
                    <td class="num">{rateText(per1000(d.reports, d.installs))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
        <section>
          <h2>Problems reported from {esc(v.version)}</h2>
          {v.problems.length ? (
            <ul class="admin-version-problems">
              {v.problems.map((p) => (
                <li>
                  {isNew(p) ? <span class="state regressed">new</span> : ""}{" "}
                  <a href={`/admin/reports/${p.number}`}>
                    #{String(p.number)} {esc(p.exceptionType ?? p.title)}
                  </a>{" "}
                  <span class="muted">
                    {formatNumber(p.reports)} from this version, {formatNumber(p.total)} in all
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">No bug report from this version.</p>
          )}
        </section>
      </>,
    ),
  });
}
