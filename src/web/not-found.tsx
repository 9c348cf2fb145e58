import { Layout, sync } from "./layout.tsx";
import { htmlPage } from "./respond.ts";

export function NotFoundPage(opts: { noindex?: boolean } = {}): JSX.Element {
  return (
    <Layout title="Not found" noindex={opts.noindex}>
      <h1>Not found</h1>
      <p>
        There is no page at this address. A statistics page opens only when its owner makes it findable or shares its
        link.
      </p>
      <p>
        <a href="/">Home</a>
      </p>
    </Layout>
  );
}

/** The not-found page as an answer nobody keeps: what a refused page, badge or card of a player answers. */
export const notFoundAnswer = (request: Request) =>
  htmlPage(request, sync(NotFoundPage({ noindex: true })), { status: 404, cacheControl: "no-store" });
