// The mod's pages (/, /features, /fork, /changelog, /docs/...), the privacy page and the hashed
// static files under /assets/. Pages are Markdown rendered once; /docs/api is rendered from the
// service's own OpenAPI document.
import { Elysia } from "elysia";
import { hashedAssets, IMMUTABLE } from "./assets.ts";
import { markdownPage, markdownPaths, type MarkdownPath } from "./markdown.ts";
import { Layout, sync } from "./layout.tsx";
import { ApiReferencePage } from "./api-reference.tsx";
import type { OpenApiDocument } from "./api-schema.ts";
import { encoded, htmlPage } from "./respond.ts";
import { NotFoundPage } from "./not-found.tsx";

/** The mod's pages change only with a new build; a few minutes in a cache is harmless. */
const SITE_CACHE = "public, max-age=300";

export type SiteDeps = { openapi: () => Promise<OpenApiDocument> };

function MarkdownView(props: { path: MarkdownPath }): JSX.Element {
  const page = markdownPage(props.path);
  return (
    <Layout title={page.title} path={props.path}>
      <article class="prose">{page.html as "safe"}</article>
    </Layout>
  );
}

export function siteRoutes(deps: SiteDeps) {
  const hide = { detail: { hide: true } };
  const app = new Elysia({ name: "tally.web.site" });
  for (const path of markdownPaths) {
    app.get(path, ({ request }) => htmlPage(request, sync(MarkdownView({ path })), { cacheControl: SITE_CACHE }), hide);
  }
  let reference: Promise<string> | undefined;
  return app
    .get(
      "/docs/api",
      async ({ request }) => {
        reference ??= deps.openapi().then((doc) => sync(ApiReferencePage(doc)));
        return htmlPage(request, await reference, { cacheControl: SITE_CACHE });
      },
      hide,
    )
    .get(
      "/assets/:file",
      ({ params, request }) => {
        const asset = hashedAssets.get(`/assets/${params.file}`);
        if (!asset) return htmlPage(request, sync(NotFoundPage()), { status: 404, cacheControl: "no-store" });
        const { body, headers } = encoded(request, asset.body);
        return new Response(body, {
          headers: {
            "content-type": asset.type,
            "cache-control": IMMUTABLE,
            "x-content-type-options": "nosniff",
            ...headers,
          },
        });
      },
      hide,
    );
}
