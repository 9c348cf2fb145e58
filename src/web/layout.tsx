// The frame of every page: landmarks, a skip link, the site navigation, our one stylesheet.
import Html from "@kitajs/html";
import { icon, stylesheet } from "./assets.ts";

export const esc = (value: unknown) => Html.escapeHtml(String(value));

/** The page as text: every component here is synchronous, so an element is always a string. */
export function sync(element: JSX.Element): string {
  if (typeof element !== "string") throw new Error("a page component returned a promise");
  return element;
}

const nav = [
  ["/", "Home"],
  ["/features", "Features"],
  ["/boards", "Boards"],
  ["/docs/", "Docs"],
  ["/fork", "Run your own"],
  ["/changelog", "Changelog"],
  ["/assets/privacy.html", "Privacy"],
] as const;

/** A link preview (OpenGraph and Twitter card tags): what a chat or forum shows for the page's address. */
export type Preview = {
  title: string;
  description: string;
  /** absolute (from BASE_URL): an unfurler fetches it from this service */
  image: string;
  imageAlt: string;
  url: string;
};

export type LayoutProps = {
  title: string;
  path?: string;
  noindex?: boolean;
  description?: string;
  preview?: Preview;
};

/** The card is 1200x630 (src/cards/card-svg.ts), the size both tag sets ask for. */
function PreviewTags(p: Preview): string {
  const tags: [string, string, string][] = [
    ["property", "og:type", "website"],
    ["property", "og:site_name", "tally"],
    ["property", "og:title", p.title],
    ["property", "og:description", p.description],
    ["property", "og:url", p.url],
    ["property", "og:image", p.image],
    ["property", "og:image:type", "image/png"],
    ["property", "og:image:width", "1200"],
    ["property", "og:image:height", "630"],
    ["property", "og:image:alt", p.imageAlt],
    ["name", "twitter:card", "summary_large_image"],
    ["name", "twitter:title", p.title],
    ["name", "twitter:description", p.description],
    ["name", "twitter:image", p.image],
    ["name", "twitter:image:alt", p.imageAlt],
  ];
  return tags.map(([attr, name, content]) => `<meta ${attr}="${name}" content="${esc(content)}">`).join("");
}

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
          {props.preview ? (PreviewTags(props.preview) as "safe") : ""}
          <meta name="color-scheme" content="light dark" />
          <title>{esc(props.title)} · tally</title>
          <link rel="stylesheet" href={stylesheet.path} />
          <link rel="icon" type="image/svg+xml" href={icon.path} />
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
