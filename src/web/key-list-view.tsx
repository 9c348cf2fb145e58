// One group's figures as a paged list without charts (/u/<name>?scope=p&group=<slug>&page=N): the
// rest of a group the statistics page shows only the leading figures of (issue 22).
import type { Catalogue } from "../catalogue/catalogue.ts";
import { esc, Layout } from "./layout.tsx";
import { ItemLabel, lifetimeText, query, sinceText, type StatsView } from "./stats-view.tsx";
import { groupSlug, type groupPage } from "./key-list.ts";

export type KeyListView = Pick<
  StatsView,
  "title" | "heading" | "path" | "noindex" | "selected" | "profiles" | "range" | "period" | "itemImages" | "items"
> & {
  catalogue: Catalogue;
  scope: "p" | "a";
  list: NonNullable<ReturnType<typeof groupPage>>;
};

export function KeyListPage(view: KeyListView): JSX.Element {
  const { list } = view;
  const pageLink = (page: number) => query(view, { group: { scope: view.scope, slug: groupSlug(list.group), page } });
  const where = view.scope === "a" ? "whole account" : view.selected ? `profile ${view.selected.cuteName}` : "profile";
  return (
    <Layout title={view.title} noindex={view.noindex}>
      <h1>{esc(view.heading)}</h1>
      <p>
        <a href={query(view, {})}>Back to the statistics page</a>
      </p>
      <h2>
        {esc(list.group)} ({esc(where)}): {String(list.total)} figures
      </h2>
      <p class="muted">
        Page {String(list.page)} of {String(list.pages)}, by name. Lifetime figures; the statistics page charts the
        largest of this group.
      </p>
      <table class="key-list">
        <thead>
          <tr>
            <th scope="col">Figure</th>
            <th scope="col">Lifetime</th>
            <th scope="col">Since</th>
          </tr>
        </thead>
        <tbody>
          {list.figures.map((f) => (
            <tr data-key={f.key}>
              <td>
                <ItemLabel view={view} f={f} />
              </td>
              <td class="value">{esc(lifetimeText(view.catalogue, f))}</td>
              <td class="since">{esc(sinceText(f.kind, f.lifetime))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.pages > 1 ? (
        <nav aria-label="Pages">
          <ul class="tabs">
            {list.page > 1 ? (
              <li>
                <a href={pageLink(list.page - 1)} rel="prev">
                  Previous
                </a>
              </li>
            ) : (
              ""
            )}
            {list.page < list.pages ? (
              <li>
                <a href={pageLink(list.page + 1)} rel="next">
                  Next
                </a>
              </li>
            ) : (
              ""
            )}
          </ul>
        </nav>
      ) : (
        ""
      )}
    </Layout>
  );
}
