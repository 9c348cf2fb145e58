import { Layout } from "./layout.tsx";

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
