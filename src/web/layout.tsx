// The frame of every page: landmarks, a skip link, the site navigation, our one stylesheet.
import Html from "@kitajs/html";
import { stylesheet } from "./assets.ts";

export const esc = (value: unknown) => Html.escapeHtml(String(value));

/** The page as text: every component here is synchronous, so an element is always a string. */
export function sync(element: JSX.Element): string {
  if (typeof element !== "string") throw new Error("a page component returned a promise");
  return element;
}

const nav = [
  ["/", "Home"],
  ["/features", "Features"],
  ["/docs/", "Docs"],
  ["/fork", "Run your own"],
  ["/changelog", "Changelog"],
  ["/assets/privacy.html", "Privacy"],
] as const;

export type LayoutProps = { title: string; path?: string; noindex?: boolean; description?: string };

export function Layout(props: Html.PropsWithChildren<LayoutProps>): string {
  const current = (href: string) =>
    props.path === href || (href === "/docs/" && props.path?.startsWith("/docs/")) ? "page" : undefined;
  return (
    "<!doctype html>" +
    sync(
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width,initial-scale=1" />
          {props.noindex ? <meta name="robots" content="noindex" /> : ""}
          {props.description ? <meta name="description" content={props.description} /> : ""}
          <meta name="color-scheme" content="light dark" />
          <title>{esc(props.title)} · tally</title>
          <link rel="stylesheet" href={stylesheet.path} />
        </head>
        <body>
          <a class="skip" href="#content">
            Skip to content
          </a>
          <header class="site">
            <nav aria-label="Site">
              <a class="brand" href="/">
                tally
              </a>
              <ul>
                {nav.map(([href, label]) => (
                  <li>
                    <a href={href} aria-current={current(href)}>
                      {label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          </header>
          <main id="content">{props.children as "safe"}</main>
          <footer class="site">
            <div>
              tally, the statistics service of the mod. Every picture and file on this page comes from this service
              itself. <a href="/assets/privacy.html">Privacy</a>
            </div>
          </footer>
        </body>
      </html>,
    )
  );
}
