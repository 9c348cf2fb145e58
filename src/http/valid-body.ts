// Validates a route's JSON body before Elysia does (run as the route's last `transform`). Elysia's
// own refusal builds its error message by JSON-stringifying the whole body, pretty-printed: a
// body nested 10 000 deep made a 200 MB message and 1.7 s of work, one nested 100 000 deep
// overflowed the stack (a 500), and any large refused body cost several times its size. Here the
// body is checked with the same schema and only its first fault is described, so a refusal costs
// no more than the check; Elysia's validation then always passes.
import { OptionalKind, type TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { ApiError } from "./errors.ts";
import { readPending } from "./body.ts";

/** The one wording of a validation fault, for bodies here and for queries in on-error.ts. */
export function validationMessage(
  field: "field" | "query parameter",
  path: string,
  message: string | undefined,
): string {
  return message === "Unexpected property" ? `unknown ${field} ${path}` : `${path}: ${message ?? "invalid value"}`;
}

/**
 * A transform hook refusing a body that does not match `schema`: 400 invalid_body at its first fault.
 * A body not read yet is read here, under `cap` decoded bytes (default: the small-body cap), so a
 * route's plugin hooks (rate limit, token guard) always run before its body is read.
 */
export function validBody(schema: TSchema, cap?: number) {
  const check = TypeCompiler.Compile(schema);
  // T.Optional(...) as a whole body: no body at all is fine, as Elysia has it.
  const optional = (schema as { [OptionalKind]?: string })[OptionalKind] === "Optional";
  const validate = (body: unknown) => {
    if ((optional && body === undefined) || check.Check(body)) return;
    const first = check.Errors(body).First();
    const path = first?.path || "/";
    throw new ApiError("invalid_body", validationMessage("field", path, first?.message), path);
  };
  // Async so Elysia awaits it (it looks at the function's kind, not at what it returns).
  return async (ctx: Parameters<typeof readPending>[0]) => {
    await readPending(ctx, cap);
    validate(ctx.body);
  };
}
