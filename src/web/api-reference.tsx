// The API reference page (/docs/api): every described route of the OpenAPI document with its
// parameters, body fields, answers, refusals and examples (api-schema.ts puts a schema in words).
import { esc, Layout } from "./layout.tsx";
import {
  rowsOf,
  rules,
  typeOf,
  type Media,
  type OpenApiDocument,
  type Operation,
  type Response,
  type Schema,
} from "./api-schema.ts";

const METHODS = ["get", "post", "put", "patch", "delete"];

function Fields(props: { schema: Schema | undefined; caption: string }): JSX.Element {
  const schema = props.schema;
  const rows = schema ? rowsOf(schema) : [];
  if (!schema || !rows.length) return <p class="muted">{esc(typeOf(schema))}</p>;
  return (
    <table class="fields">
      <caption class="muted">{esc(props.caption)}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Type</th>
          <th scope="col">Required</th>
          <th scope="col">Rules</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr>
            <td>
              <code>{esc(r.path)}</code>
              {r.schema.description ? <div class="muted">{esc(r.schema.description)}</div> : ""}
            </td>
            <td>{esc(typeOf(r.schema))}</td>
            <td>{r.required ? "yes" : "no"}</td>
            <td>{esc(rules(r.schema))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Example(props: { value: unknown }): JSX.Element {
  if (props.value === undefined) return "";
  return (
    <details>
      <summary>Example (from the golden fixtures)</summary>
      <pre>{esc(JSON.stringify(props.value, null, 2))}</pre>
    </details>
  );
}

const jsonOf = (content: Media | undefined) => content?.["application/json"];
const mediaTypes = (content: Media | undefined) => Object.keys(content ?? {});

/** The codes an error answer may carry (the enum of its error.code), or null when it is not the error shape. */
function errorCodes(r: Response): string[] | null {
  const codes = jsonOf(r.content)?.schema?.properties?.error?.properties?.code?.enum;
  return Array.isArray(codes) ? codes.map(String) : null;
}

function Answers(props: { responses: Record<string, Response> }): JSX.Element {
  const entries = Object.entries(props.responses);
  const refusals = entries.filter(([, r]) => errorCodes(r));
  const others = entries.filter(([, r]) => !errorCodes(r));
  return (
    <>
      {others.map(([status, r]) => {
        const media = jsonOf(r.content);
        return (
          <>
            <h4>
              Answer {esc(status)}
              {mediaTypes(r.content).length && !media ? ` (${esc(mediaTypes(r.content).join(", "))})` : ""}
            </h4>
            {r.description && !media ? <p>{esc(r.description)}</p> : ""}
            {media ? <Fields schema={media.schema} caption={`Fields of the ${status} answer`} /> : ""}
            {media ? <Example value={media.example} /> : ""}
          </>
        );
      })}
      {refusals.length ? (
        <>
          <h4>Refusals</h4>
          <table class="refusals">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Codes</th>
                <th scope="col">Also in the body</th>
              </tr>
            </thead>
            <tbody>
              {refusals.map(([status, r]) => {
                const extra = Object.keys(jsonOf(r.content)?.schema?.properties ?? {}).filter((k) => k !== "error");
                return (
                  <tr>
                    <td>{esc(status)}</td>
                    <td>
                      {errorCodes(r)!
                        .map((c) => `<code>${esc(c)}</code>`)
                        .join(", ")}
                    </td>
                    <td>{extra.length ? extra.map((k) => `<code>${esc(k)}</code>`).join(", ") : ""}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      ) : (
        ""
      )}
    </>
  );
}

/** The personal access token scopes an operation takes (issue 37), in words; "" when none. */
const scopesOf = (op: Operation) => (op.security ?? []).flatMap((s) => s.personalToken ?? []).join(" or ");

export function ApiReferencePage(doc: OpenApiDocument): JSX.Element {
  const ops: { method: string; path: string; op: Operation }[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const m of METHODS) if (item[m]) ops.push({ method: m, path, op: item[m]! });
  const tags = [...new Set(ops.map((o) => o.op.tags?.[0] ?? "other"))].sort();
  return (
    <Layout title="API reference" path="/docs/api">
      <div class="prose">
        <h1>API reference</h1>
        <p>
          Generated from this service's own <a href="/v1/openapi.json">/v1/openapi.json</a> (
          {esc(doc.info?.title ?? "tally")} {esc(doc.info?.version ?? "")}), which a client generator can read. Bodies
          are JSON (<code>Content-Type: application/json</code>), gzip-compressed with{" "}
          <code>Content-Encoding: gzip</code> when over 8 KiB. Routes marked <strong>token</strong> need{" "}
          <code>Authorization: Bearer &lt;token&gt;</code> from sign-in. A refusal answers{" "}
          <code>{'{ "error": { "code", "message", "path"? } }'}</code> with a stable code; 5xx answers add{" "}
          <code>requestId</code>, and 429 and 503 carry <code>Retry-After</code>.
        </p>
        <p>
          In words: <a href="/docs/protocol">the upload protocol</a> (signing in, the envelope, days, idempotency, every
          error code, limits, the outbox rules, testing against a local tally) and{" "}
          <a href="/docs/architecture">how tally is built</a> (its modules, a request's way through them, the data
          model, the jobs).
        </p>
        <nav aria-label="API sections">
          <ul>
            {tags.map((t) => (
              <li>
                <a href={`#tag-${t}`}>{esc(t)}</a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      {tags.map((tag) => (
        <section aria-labelledby={`tag-${tag}`}>
          <h2 id={`tag-${tag}`}>{esc(tag)}</h2>
          {ops
            .filter((o) => (o.op.tags?.[0] ?? "other") === tag)
            .map(({ method, path, op }) => {
              const body = op.requestBody;
              const media = jsonOf(body?.content);
              return (
                <article class="api-op">
                  <h3>
                    <span class="method">{method.toUpperCase()}</span> <code>{esc(path)}</code>
                    {op.security?.length && !op.security.some((s) => !Object.keys(s).length) ? (
                      <span class="badge">token</span>
                    ) : (
                      ""
                    )}
                    {scopesOf(op) ? <span class="badge">access token: {esc(scopesOf(op))}</span> : ""}
                  </h3>
                  {op.summary ? <p>{esc(op.summary)}</p> : ""}
                  {op.parameters?.length ? (
                    <>
                      <h4>Parameters</h4>
                      <table>
                        <thead>
                          <tr>
                            <th scope="col">Name</th>
                            <th scope="col">In</th>
                            <th scope="col">Type</th>
                            <th scope="col">Required</th>
                            <th scope="col">Rules</th>
                          </tr>
                        </thead>
                        <tbody>
                          {op.parameters.map((p) => (
                            <tr>
                              <td>
                                <code>{esc(p.name)}</code>
                              </td>
                              <td>{esc(p.in)}</td>
                              <td>{esc(typeOf(p.schema))}</td>
                              <td>{p.required ? "yes" : "no"}</td>
                              <td>{esc(p.schema ? rules(p.schema) : "")}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </>
                  ) : (
                    ""
                  )}
                  {media ? (
                    <>
                      <h4>Request body{body?.required ? "" : " (optional)"}</h4>
                      <Fields schema={media.schema} caption="Fields of the request body" />
                      <Example value={media.example} />
                    </>
                  ) : (
                    ""
                  )}
                  <Answers responses={op.responses ?? {}} />
                </article>
              );
            })}
        </section>
      ))}
    </Layout>
  );
}
