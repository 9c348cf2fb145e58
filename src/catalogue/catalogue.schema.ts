// The catalogue document (contract 2.7): keys and key patterns with kind, unit, category, label,
// group, icon and scope; namespaces; categories; units; mirror sections; closed lists; levelling
// tables; catalogueVersion. Every object refuses unknown fields, so a typo fails at load.
import { Type as T, type Static } from "@sinclair/typebox";

const Id = T.String({ pattern: "^[a-z][a-z0-9_]{1,31}$" });
const Label = T.String({ minLength: 1, maxLength: 120 });
const strict = { additionalProperties: false } as const;

export const Kind = T.Union([T.Literal("count"), T.Literal("max"), T.Literal("min"), T.Literal("gauge")]);
/** profile: rows under a game-mode profile; account: rows under the reserved all-zero profileId. */
export const Scope = T.Union([T.Literal("profile"), T.Literal("account")]);

const Entry = {
  kind: Kind,
  unit: Id,
  category: Id,
  label: Label,
  group: Label,
  icon: T.Optional(T.String({ pattern: "^[A-Za-z0-9_:;-]{1,64}$" })),
  scope: Scope,
};

export const CatalogueDocument = T.Object(
  {
    catalogueVersion: T.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    categories: T.Array(
      T.Object({ id: Id, label: Label, description: T.Optional(T.String({ maxLength: 500 })) }, strict),
      { minItems: 1 },
    ),
    namespaces: T.Array(
      T.Object({ id: T.String({ pattern: "^[a-z][a-z0-9_]{1,15}$" }), category: Id, label: Label }, strict),
      { minItems: 1 },
    ),
    units: T.Array(
      T.Object(
        {
          id: Id,
          label: Label,
          /** Fixed-point divisor: a wire value v means v / scale of the unit (contract 1.2). */
          scale: T.Integer({ minimum: 1, maximum: 1_000_000_000 }),
        },
        strict,
      ),
      { minItems: 1 },
    ),
    keys: T.Array(T.Object({ key: T.String({ maxLength: 128 }), ...Entry }, strict)),
    /** A pattern is a key whose segments may be {PLACEHOLDER}s, each matching any one segment. */
    patterns: T.Array(T.Object({ pattern: T.String({ maxLength: 160 }), ...Entry }, strict)),
    mirrorSections: T.Array(T.Object({ id: Id, label: Label }, strict)),
    /** Closed lists both sides validate against, by name (cuteNames: the profile display names). */
    lists: T.Record(
      T.String({ pattern: "^[a-zA-Z][a-zA-Z0-9_]{0,63}$" }),
      T.Array(T.String({ minLength: 1, maxLength: 64 })),
    ),
    /** Levelling tables by name: cumulative experience needed for each level, ascending. */
    levelling: T.Record(
      T.String({ pattern: "^[a-z][a-z0-9_]{0,63}$" }),
      T.Array(T.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    ),
  },
  strict,
);

export type CatalogueDocument = Static<typeof CatalogueDocument>;
export type CatalogueEntry = Static<typeof CatalogueDocument>["keys"][number];

/** GET /v1/stats/catalogue's answers, for the OpenAPI document (the route serves the loaded bytes). */
export const CATALOGUE_ANSWERS = {
  200: {
    description: "The catalogue document, byte for byte as loaded.",
    content: { "application/json": { schema: CatalogueDocument } },
  },
  304: { description: "Not modified: the If-None-Match ETag is current." },
};
