// The OpenAPI document as the API reference page (api-reference.tsx) reads it: its types, and a
// schema in words (its type, the rules a client must meet, its fields by path).

export type Schema = {
  type?: string | string[];
  description?: string;
  pattern?: string;
  format?: string;
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
};
export type Media = Record<string, { schema?: Schema; example?: unknown }>;
export type Response = { description?: string; content?: Media };
export type Operation = {
  tags?: string[];
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { required?: boolean; description?: string; content?: Media };
  responses?: Record<string, Response>;
};
export type OpenApiDocument = {
  info?: { title?: string; version?: string };
  paths?: Record<string, Record<string, Operation>>;
};

/** Nested fields deeper than this are shown as their type only. */
const MAX_DEPTH = 6;

const isObject = (s: Schema) => s.type === "object" || s.properties !== undefined;
const nonNull = (s: Schema) => (s.anyOf ? s.anyOf.filter((a) => a.type !== "null") : [s]);

export function typeOf(s: Schema | undefined): string {
  if (!s) return "any";
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.anyOf) return s.anyOf.map(typeOf).join(" | ");
  if (s.enum) return s.enum.map((e) => JSON.stringify(e)).join(" | ");
  const t = Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "object");
  if (t === "array") return `array of ${typeOf(s.items)}`;
  if (t === "object" && s.patternProperties) return `map of ${typeOf(Object.values(s.patternProperties)[0])}`;
  if (t === "object" && s.additionalProperties && typeof s.additionalProperties === "object")
    return `map of ${typeOf(s.additionalProperties)}`;
  return t;
}

/** The constraints a client must meet, in words. */
export function rules(s: Schema): string {
  const out: string[] = [];
  for (const one of nonNull(s)) {
    if (one.pattern) out.push(`pattern ${one.pattern}`);
    if (one.format) out.push(one.format);
    if (one.minLength !== undefined && one.maxLength !== undefined)
      out.push(`${one.minLength} to ${one.maxLength} characters`);
    else if (one.maxLength !== undefined) out.push(`at most ${one.maxLength} characters`);
    if (one.minimum !== undefined && one.maximum !== undefined) out.push(`${one.minimum} to ${one.maximum}`);
    else if (one.minimum !== undefined) out.push(`at least ${one.minimum}`);
    if (one.maxItems !== undefined) out.push(`at most ${one.maxItems} items`);
    if (one.maxProperties !== undefined) out.push(`at most ${one.maxProperties} entries`);
    if (one.patternProperties) out.push(`keys: ${Object.keys(one.patternProperties).join(", ")}`);
  }
  return out.join("; ");
}

export type Row = { path: string; schema: Schema; required: boolean };

/** Every field of a schema, nested ones by their path, in document order. */
export function rowsOf(schema: Schema, prefix = "", depth = 0): Row[] {
  const rows: Row[] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, s] of Object.entries(schema.properties ?? {})) {
    const path = prefix + name;
    rows.push({ path, schema: s, required: required.has(name) });
    if (depth >= MAX_DEPTH) continue;
    for (const one of nonNull(s)) {
      if (isObject(one) && one.properties) rows.push(...rowsOf(one, `${path}.`, depth + 1));
      else if (one.type === "array" && one.items && isObject(one.items) && one.items.properties)
        rows.push(...rowsOf(one.items, `${path}[].`, depth + 1));
    }
  }
  return rows;
}
