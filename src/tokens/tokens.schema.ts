// Bodies and answers of the personal access token routes.
import { Type as T } from "@sinclair/typebox";
import { PERSONAL_TOKEN_PATTERN } from "../http/secret.ts";
import { SCOPE_WORDS, SCOPES } from "./scopes.ts";
import { TOKEN_ID_PATTERN } from "./tokens.ts";

const strict = { additionalProperties: false } as const;
const Epoch = T.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
/** A label is for its owner: what the token is for ("Discord bot"); printable, at most 64 characters. */
export const LABEL_MAX = 64;

const ScopeName = T.Union([T.Literal("stats:read"), T.Literal("page:read"), T.Literal("export")], {
  description: SCOPES.map((s) => `\`${s}\`: ${SCOPE_WORDS[s]}`).join("; "),
});

export const CreateTokenBody = T.Object(
  {
    label: T.String({
      minLength: 1,
      maxLength: LABEL_MAX,
      pattern: "^[^\\u0000-\\u001f\\u007f]+$",
      description: "What the token is for, in the owner's words (refused if it holds a player name's shape).",
    }),
    scopes: T.Array(ScopeName, { minItems: 1, maxItems: SCOPES.length, uniqueItems: true }),
    expiresInDays: T.Optional(
      T.Integer({
        minimum: 1,
        maximum: 3650,
        description: "Days until the token stops working (at most TOKEN_MAX_DAYS); absent: the longest allowed.",
      }),
    ),
  },
  strict,
);

const tokenFields = {
  id: T.String({ pattern: TOKEN_ID_PATTERN }),
  label: T.String({ maxLength: LABEL_MAX }),
  scopes: T.Array(ScopeName),
  createdAt: Epoch,
  lastUsedAt: T.Union([Epoch, T.Null()], { description: "Kept to the minute; null: never used." }),
  expiresAt: T.Union([Epoch, T.Null()], { description: "Null: never expires." }),
};

export const TokenInfo = T.Object(tokenFields, strict);
export const CreatedToken = T.Object(
  {
    ...tokenFields,
    token: T.String({
      pattern: PERSONAL_TOKEN_PATTERN,
      description: "The secret, shown this once: send it as Authorization: Bearer <token>.",
    }),
  },
  strict,
);
export const TokensAnswer = T.Object({ tokens: T.Array(TokenInfo), maxTokens: T.Integer({ minimum: 1 }) }, strict);
export const RevokedAnswer = T.Object({ revoked: T.Integer({ minimum: 0 }) }, strict);
export const TokenIdParams = T.Object({ id: T.String({ pattern: TOKEN_ID_PATTERN }) }, strict);
