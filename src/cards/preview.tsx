// What a statistics page says about itself to a link unfurler (its OpenGraph and Twitter tags),
// and the owner's badge snippets. Both pick their figures with the card's rule (headline.ts) from
// the figures the page already read, so the page costs no extra query.
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { StatsView } from "../web/stats-view.tsx";
import { esc, type Preview } from "../web/layout.tsx";
import type { KeyFigure } from "../web/key-figure.ts";
import { candidatesOf, headline, headlineText, type Candidate, type Headline } from "./headline.ts";

/**
 * The headline of the figures a statistics page shows (its range always covers the last 30 days),
 * led by the keys the player chose (`chosen`; `all`: each scope's every figure, where a chosen one
 * outside the charted figures is found).
 */
export function pageHeadline(
  catalogue: Catalogue,
  view: Pick<StatsView, "profileKeys" | "accountKeys" | "profileDays" | "accountDays" | "range">,
  all: { p: readonly KeyFigure[]; a: readonly KeyFigure[] },
  chosen: readonly string[],
): Headline {
  const candidates: Candidate[] = [
    ...candidatesOf(view.profileKeys, all.p, chosen, (key) => view.profileDays.get(key)),
    ...candidatesOf(view.accountKeys, all.a, chosen, (key) => view.accountDays.get(key)),
  ];
  return headline(catalogue, candidates, view.range.to, chosen);
}

/**
 * The preview of a statistics page at `pagePath` (its card beside it, at `pagePath`/card.png).
 * `version` changes with the numbers (the account's last upload), so a chat that keeps images by
 * address asks again after a change.
 */
export function statsPreview(
  baseUrl: string,
  h: Headline,
  opts: { name: string | null; pagePath: string; version: number | null },
): Preview {
  const title = opts.name ? `${opts.name}'s SkyBlock statistics` : "Shared SkyBlock statistics";
  const figures = headlineText(h);
  return {
    title,
    description: figures
      ? `${figures}. Recorded with the mod, shown by tally.`
      : "Recorded with the mod, shown by tally.",
    image: `${baseUrl}${opts.pagePath}/card.png${opts.version ? `?v=${opts.version}` : ""}`,
    imageAlt: opts.name
      ? `${opts.name}'s head and statistics${figures ? `: ${figures}` : ""}`
      : `Statistics${figures ? `: ${figures}` : ""}`,
    url: `${baseUrl}${opts.pagePath}`,
  };
}

/** The preview of a public profile page. */
export function profilePreview(baseUrl: string, name: string, profiles: number): Preview {
  const path = `/p/${encodeURIComponent(name)}`;
  return {
    title: `${name} · SkyBlock profile`,
    description: `${name}'s public SkyBlock profile${profiles === 1 ? "" : "s"} (${profiles}), from the game's API, shown by tally.`,
    image: `${baseUrl}${path}/card.png`,
    imageAlt: `${name}'s head and profile figures`,
    url: `${baseUrl}${path}`,
  };
}

/** The owner's section: each headline figure's badge, with Markdown and HTML to copy. */
export function BadgeSnippets(props: {
  baseUrl: string;
  name: string;
  findable: boolean;
  figures: { key: string; label: string }[];
}): JSX.Element {
  const page = `${props.baseUrl}/u/${encodeURIComponent(props.name)}`;
  return (
    <section aria-labelledby="badges-h" class="badges">
      <h2 id="badges-h">Badges</h2>
      {!props.findable ? (
        <p class="muted">
          Badges show a figure of a page anyone can find by name. Make your page findable in the mod to use them.
        </p>
      ) : props.figures.length === 0 ? (
        <p class="muted">Nothing recorded yet to make a badge of.</p>
      ) : (
        <>
          <p class="muted">
            A figure as a small picture for a forum signature or a README, light or dark as the reader prefers. Copy a
            snippet; the picture comes from this service and follows your numbers.
          </p>
          <ul class="badge-list">
            {props.figures.map((f) => {
              const file = `/badge/${encodeURIComponent(f.key)}.svg`;
              const src = page + file;
              const md = `[![${f.label.replace(/[[\]]/g, "")}](${src})](${page})`;
              const html = `<a href="${page}"><img src="${src}" alt="${f.label.replaceAll('"', "&quot;")}"></a>`;
              return (
                <li>
                  <img src={`/u/${encodeURIComponent(props.name)}${file}`} alt={`${esc(f.label)} badge`} />
                  <details>
                    <summary>Snippets for {esc(f.label)}</summary>
                    <p class="since">Markdown</p>
                    <pre>
                      <code>{esc(md)}</code>
                    </pre>
                    <p class="since">HTML</p>
                    <pre>
                      <code>{esc(html)}</code>
                    </pre>
                  </details>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
