// The bug report the mod sends after the user read and confirmed it, and the answer. The body holds
// no player identity (contract 1.3): no field asks for one, and any other field is refused.
import { Type as T } from "@sinclair/typebox";
import { MOD_VERSION_MAX_LENGTH, MOD_VERSION_PATTERN } from "../wire/mod-version.ts";

const strict = { additionalProperties: false } as const;
const Version = T.String({ minLength: 1, maxLength: MOD_VERSION_MAX_LENGTH, pattern: MOD_VERSION_PATTERN });

export const TOOL_PATTERN = "^[a-z][a-z0-9_-]{0,31}$";
export const ReportParams = T.Object({ tool: T.String({ pattern: TOOL_PATTERN, maxLength: 32 }) }, strict);

export const ReportBody = T.Object(
  {
    /** Contract 9.1: every body carries its schema. */
    schema: T.Integer({ minimum: 0, maximum: 1000 }),
    modVersion: Version,
    minecraft: T.String({ minLength: 1, maxLength: 32, pattern: "^[0-9A-Za-z][0-9A-Za-z.+_-]*$" }),
    loader: T.Optional(T.String({ minLength: 1, maxLength: 32, pattern: "^[a-z][a-z0-9_-]*$" })),
    title: T.String({ minLength: 1, maxLength: 200 }),
    message: T.Optional(T.String({ maxLength: 4000 })),
    steps: T.Optional(T.String({ maxLength: 4000 })),
    stackTrace: T.Optional(T.String({ maxLength: 32768 })),
  },
  strict,
);

export const ReportAnswer = T.Object(
  {
    problemId: T.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    status: T.Union([T.Literal("new"), T.Literal("repeat")]),
    count: T.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  },
  strict,
);
