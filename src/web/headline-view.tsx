// The figures heading a statistics page (issue 34): the player's chosen headline figures first,
// else the ones their activity makes most recent, as the card, the link description, the badges
// and the public figures show them. On the owner's own page, a small form chooses them (POST
// /u/<name>/headline, stats.routes.tsx).
import type { Headline } from "../cards/headline.ts";
import { HEADLINE_KEYS } from "../accounts/settings.schema.ts";
import type { KeyFigure } from "./key-figure.ts";
import { esc } from "./layout.tsx";

/** The headline figures: label and value, the raw key one hover away. */
export function HeadlineFigures(props: { headline: Headline | undefined; form?: string }): JSX.Element {
  const h = props.headline;
  if (!h || (h.figures.length === 0 && !props.form)) return "";
  return (
    <section aria-label="Headline figures" id="headline" class="headline">
      <ul class="headline-figures">
        {h.figures.map((f, i) => (
          <li data-key={h.keys[i]}>
            <span class="label" title={h.keys[i]} tabindex="0">
              {esc(f.label)}
            </span>
            <span class="value">{esc(f.value)}</span>
          </li>
        ))}
      </ul>
      {(props.form ?? "") as "safe"}
    </section>
  );
}

/**
 * The owner's choice of headline figures: HEADLINE_KEYS selects over the figures the page shows (and
 * the ones chosen before), by group; "Chosen by activity" leaves a place to the default rule.
 */
export function HeadlineForm(props: {
  action: string;
  chosen: readonly string[];
  figures: readonly Pick<KeyFigure, "key" | "label" | "group">[];
}): JSX.Element {
  const byKey = new Map<string, Pick<KeyFigure, "key" | "label" | "group">>();
  for (const f of props.figures) if (!byKey.has(f.key)) byKey.set(f.key, f);
  const groups = new Map<string, Pick<KeyFigure, "key" | "label" | "group">[]>();
  for (const f of [...byKey.values()].sort((a, b) => a.label.localeCompare(b.label) || a.key.localeCompare(b.key))) {
    const list = groups.get(f.group);
    if (list) list.push(f);
    else groups.set(f.group, [f]);
  }
  const ordered = [...groups].sort(([a], [b]) => a.localeCompare(b));
  return (
    <details class="headline-choice">
      <summary>Choose your headline figures</summary>
      <form method="post" action={props.action} class="headline-form">
        <p class="muted">
          Up to {String(HEADLINE_KEYS)} figures lead your page, its link preview card, its description and its badges,
          in this order. A place left to activity shows the figures you recorded on the most of the last 30 days.
        </p>
        {Array.from({ length: HEADLINE_KEYS }, (_, i) => (
          <label>
            <span>Place {String(i + 1)}</span>
            <select name={`key${i + 1}`}>
              <option value="">Chosen by activity</option>
              {ordered.map(([group, list]) => (
                <optgroup label={esc(group)}>
                  {list.map((f) => (
                    <option value={esc(f.key)} selected={props.chosen[i] === f.key}>
                      {esc(f.label)}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </label>
        ))}
        <button type="submit">Save headline</button>
      </form>
    </details>
  );
}
