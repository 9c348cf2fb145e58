// /docs/api: the API reference, rendered on the server from this service's own OpenAPI document
// (GET /v1/openapi.json), without any third-party viewer.
import Html from "@kitajs/html";
import { esc, Layout } from "./layout.tsx";

type Schema = { type?: string | string[]; pattern?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]; enum?: unknown[]; const?: unknown };
type Operation = { tags?: string[]; summary?: string; parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[]; requestBody?: { content?: Record<string, { schema?: Schema }> }; responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> };
export type OpenApiDocument = { info?: { title?: string; version?: string }; paths?: Record<string, Record<string, Operation>> };

const METHODS = ["get", "post", "put", "patch", "delete"];

function typeOf(s: Schema | undefined): JSX.Element {
  if (!s) return "any";
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.anyOf) return s.anyOf.map(typeOf).join(" | ");
  if (s.enum) return s.enum.map((e) => JSON.stringify(e)).join(" | ");
  const t = Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "object");
  if (t === "array") return `array of ${typeOf(s.items)}`;
  return s.pattern ? `${t} (${s.pattern})` : t;
}

function Fields(props: { schema: Schema | undefined }): JSX.Element {
  const props_ = props.schema?.properties;
  if (!props_) return <p class="muted">{esc(typeOf(props.schema))}</p>;
  const required = new Set(props.schema?.required ?? []);
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Type</th>
          <th scope="col">Required</th>
        </tr>
      </thead>
      <tbody>
        {Object.entries(props_).map(([name, s]) => (
          <tr>
            <td>
              <code>{esc(name)}</code>
            </td>
            <td>{esc(typeOf(s))}</td>
            <td>{required.has(name) ? "yes" : "no"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const schemaOf = (content: Record<string, { schema?: Schema }> | undefined) => Object.values(content ?? {})[0]?.schema;

export function ApiReferencePage(doc: OpenApiDocument): JSX.Element {
  const ops: { method: string; path: string; op: Operation }[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) for (const m of METHODS) if (item[m]) ops.push({ method: m, path, op: item[m]! });
  const tags = [...new Set(ops.map((o) => o.op.tags?.[0] ?? "other"))].sort();
  return (
    <Layout title="API reference" path="/docs/api">
      <div class="prose">
        <h1>API reference</h1>
        <p>
          Generated from this service's own <a href="/v1/openapi.json">/v1/openapi.json</a> ({esc(doc.info?.title ?? "tally")} {esc(doc.info?.version ?? "")}). Errors answer{" "}
          <code>{'{ "error": { "code", "message", "path"? } }'}</code>.
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
              const ok = Object.entries(op.responses ?? {}).find(([code]) => code.startsWith("2"));
              const body = schemaOf(op.requestBody?.content);
              return (
                <article class="api-op">
                  <h3>
                    <span class="method">{method.toUpperCase()}</span> <code>{esc(path)}</code>
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
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </>
                  ) : (
                    ""
                  )}
                  {body ? (
                    <>
                      <h4>Request body</h4>
                      <Fields schema={body} />
                    </>
                  ) : (
                    ""
                  )}
                  {ok && schemaOf(ok[1].content) ? (
                    <>
                      <h4>Answer ({esc(ok[0])})</h4>
                      <Fields schema={schemaOf(ok[1].content)} />
                    </>
                  ) : (
                    ""
                  )}
                </article>
              );
            })}
        </section>
      ))}
    </Layout>
  );
}
