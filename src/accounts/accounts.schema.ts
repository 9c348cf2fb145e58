// Answers of the status, page-token and share routes.
import { Type as T } from "@sinclair/typebox";

const strict = { additionalProperties: false } as const;
const Epoch = T.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const Url = T.String({ format: "uri" });

export const StatusAnswer = T.Object(
  {
    uuid: T.String(),
    name: T.String(),
    zone: T.String(),
    /** The consent categories that are on, in catalogue order. */
    consented: T.Array(T.String()),
    settingsVersion: T.Integer(),
    catalogueVersion: T.Integer(),
    lastUploadAt: T.Union([Epoch, T.Null()]),
    /** The findable page /u/<name>, when the player made it findable. */
    pageUrl: T.Union([Url, T.Null()]),
    /** The share link /s/<key>, while a share key exists. */
    shareUrl: T.Union([Url, T.Null()]),
    warnings: T.Array(T.Object({ code: T.String(), message: T.String() }, strict)),
  },
  strict,
);

export const PageTokenAnswer = T.Object({ url: Url, expiresAt: Epoch }, strict);
export const ShareAnswer = T.Object(
  { shareUrl: T.Union([Url, T.Null()]), createdAt: T.Union([Epoch, T.Null()]) },
  strict,
);
export const EmptyBody = T.Optional(T.Object({}, strict));
