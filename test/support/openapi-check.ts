// Checks every JSON answer a test app gives against the app's own OpenAPI document
// (GET /v1/openapi.json): the operation must list the answer's status, and the body must match the
// schema documented for it (Ajv, JSON Schema 2020-12, as OpenAPI 3.1 has it). A test whose request
// gets an answer the document does not describe fails, so the document cannot drift from the
// routes unnoticed. Answers to paths or methods the document does not list (pages, unknown routes)
// are not checked. After the run, one line says how many answers were checked.
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";

type Json = Record<string, any>;
type Operation = { template: RegExp; method: string; path: string; responses: Record<string, Json> };

const ajv = new Ajv2020({
  strict: false,
  allErrors: false,
  validateFormats: true,
  formats: { uri: (s: string) => URL.canParse(s) },
});
ajv.addKeyword("example");
// Compiled once per schema: by object for the answers of one app, by text across apps.
const bySchema = new WeakMap<object, ValidateFunction>();
const byText = new Map<string, ValidateFunction>();

function validatorFor(schema: Json): ValidateFunction {
  let v = bySchema.get(schema);
  if (v) return v;
  const text = JSON.stringify(schema);
  v = byText.get(text);
  if (!v) byText.set(text, (v = ajv.compile(schema)));
  bySchema.set(schema, v);
  return v;
}

// One tally for the whole run (test/support/preload.ts prints it after the last file).
const tally = ((
  globalThis as { __openapiChecks?: { checked: number; seen: Set<string>; operations: Set<string> } }
).__openapiChecks ??= {
  checked: 0,
  seen: new Set<string>(),
  operations: new Set<string>(),
});

/** What this process checked, as plain data: a worker of a parallel run hands it to scripts/test.ts. */
export type Coverage = { checked: number; seen: string[]; operations: string[] };

export function coverageSoFar(): Coverage {
  return { checked: tally.checked, seen: [...tally.seen], operations: [...tally.operations] };
}

/** The run's line: how many answers were checked, and which documented operations no test answered with JSON. */
export function openapiSummary(parts: Coverage[] = [coverageSoFar()]): string | null {
  const checked = parts.reduce((n, p) => n + p.checked, 0);
  if (checked === 0) return null;
  const seen = new Set(parts.flatMap((p) => p.seen));
  const operations = new Set(parts.flatMap((p) => p.operations));
  const unseen = [...operations].filter((o) => !seen.has(o)).sort();
  return (
    `openapi: ${checked} JSON answers checked against /v1/openapi.json, covering ${seen.size} of ${operations.size} operations` +
    (unseen.length ? ` (never answered with JSON: ${unseen.join(", ")})` : "")
  );
}

function operationsOf(doc: Json): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    const template = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^/}]+\}/g, "[^/]+")}$`);
    for (const [method, op] of Object.entries(item)) {
      ops.push({ template, method: method.toUpperCase(), path, responses: op.responses ?? {} });
      tally.operations.add(`${method.toUpperCase()} ${path}`);
    }
  }
  return ops;
}

/** A checker bound to one app: `check(request, response)` throws when the answer is not as documented. */
export function openapiChecker(handle: (request: Request) => Promise<Response>) {
  let ops: Promise<Operation[]> | undefined;
  const load = () =>
    (ops ??= handle(new Request("http://localhost/v1/openapi.json")).then(async (r) =>
      operationsOf((await r.json()) as Json),
    ));
  return async function check(request: { method: string; url: string }, response: Response): Promise<void> {
    const url = new URL(request.url);
    if (!url.pathname.startsWith("/v1/") || url.pathname === "/v1/openapi.json") return;
    if (!(response.headers.get("content-type") ?? "").startsWith("application/json")) return;
    const op = (await load()).find((o) => o.method === request.method && o.template.test(url.pathname));
    if (!op) return;
    const where = `${request.method} ${url.pathname} -> ${response.status}`;
    const documented = op.responses[String(response.status)];
    if (!documented)
      throw new Error(`openapi: ${where} is not documented (documented: ${Object.keys(op.responses).join(", ")})`);
    const schema = documented.content?.["application/json"]?.schema as Json | undefined;
    if (!schema) throw new Error(`openapi: ${where} answered JSON, but the document gives that status no JSON body`);
    const body = await response.clone().json();
    const validate = validatorFor(schema);
    if (!validate(body)) {
      throw new Error(
        `openapi: ${where} does not match its documented schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
      );
    }
    tally.checked++;
    tally.seen.add(`${op.method} ${op.path}`);
  };
}
