// The range's tabs ("Last 30 days", …) of a page's charts and rates, the shown range marked current.

/** One tab a range of `options`, each linking to `href(days)`, in a navigation named `label`. */
export function RangeTabs(props: {
  label: string;
  range: { days: number; options: readonly number[] };
  href: (days: number) => string;
}): JSX.Element {
  return (
    <nav aria-label={props.label}>
      <ul class="tabs">
        {props.range.options.map((days) => (
          <li>
            <a href={props.href(days)} aria-current={days === props.range.days ? "page" : undefined}>
              Last {String(days)} days
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
