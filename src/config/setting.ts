// The shape of one setting and the schemas the settings files share.
import { type TSchema, Type as T } from "@sinclair/typebox";

export type Setting<S extends TSchema = TSchema> = {
  env: string;
  schema: S;
  /** The default as the environment would spell it; undefined means "not set". */
  default?: string;
  doc: string;
  /** Masked by check-config and never logged. */
  secret?: boolean;
  /** Said after what the setting accepts when a value is refused. */
  hint?: string;
};

export const setting = <S extends TSchema>(s: Setting<S>) => s;

export const Url = T.String({ format: "http-url", maxLength: 2048 });
export const OptionalUrl = T.Union([Url, T.Literal("")]);
export const Port = T.Integer({ minimum: 0, maximum: 65535 });
export const Millis = (minimum: number, maximum: number) => T.Integer({ minimum, maximum });
export const Bytes = (minimum: number, maximum: number) => T.Integer({ minimum, maximum });
export const Bool = T.Boolean();
/** An operator token: unset, or long enough that guessing it is hopeless. */
export const OperatorToken = T.Union([T.Literal(""), T.String({ minLength: 32, maxLength: 256 })]);
export const OPERATOR_TOKEN_HINT = "a short token can be guessed: make one with `openssl rand -base64 32`";
