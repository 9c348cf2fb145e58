// The export's format (docs/decisions.md "The export's format version"): the version an export
// carries, and the shape of each row of its statistics sections as an import checks it. Every
// object refuses unknown fields, every string has a length cap, every number is a safe integer,
// as an upload's (src/wire/envelope.ts, whose pieces these reuse).
import { Type as T, type Static, type TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { Amounts, ClientId, Day, Hex32, Key, Kind, Session, Word } from "../wire/envelope.ts";

/**
 * 1: the export as a report (no version field). 2: each day row, backfill and seal carries its key's
 * pinned `kind`, and the head its `format`: what an instance needs to rebuild the statistics.
 */
export const EXPORT_FORMAT = 2;
/** The oldest format an import takes (format 1 lacks the kinds an instance needs to fold exactly). */
export const OLDEST_IMPORT_FORMAT = 2;

const strict = { additionalProperties: false } as const;
const Epoch = T.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const SafeInt = T.Integer({ minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
const Nullable = <S extends TSchema>(s: S) => T.Union([s, T.Null()]);
/** An install id, or "" on a day the seal collapsed (its installs folded into one row). */
const InstallOrSealed = T.String({ pattern: "^([0-9a-f]{32})?$", maxLength: 32 });

export const importRows = {
  profiles: T.Object(
    {
      profileId: Hex32,
      // As an upload's profile.cuteName (src/wire/envelope.ts).
      cuteName: T.String({ minLength: 1, maxLength: 32 }),
      firstSeenAt: Epoch,
      lastSeenAt: Epoch,
    },
    strict,
  ),
  dayRows: T.Object(
    {
      profileId: Hex32,
      key: Key,
      kind: Kind,
      day: Day,
      installId: InstallOrSealed,
      value: SafeInt,
      low: Nullable(SafeInt),
      high: Nullable(SafeInt),
      sentAt: Epoch,
    },
    strict,
  ),
  backfills: T.Object(
    { profileId: Hex32, key: Key, kind: Kind, installId: Hex32, day: Day, value: SafeInt, sentAt: Epoch },
    strict,
  ),
  seals: T.Object({ profileId: Hex32, key: Key, kind: Kind, day: Day, value: SafeInt }, strict),
  sessions: T.Object({ profileId: Hex32, installId: Hex32, ...Session.properties }, strict),
  timelineEvents: T.Object(
    {
      id: ClientId,
      profileId: Hex32,
      installId: Hex32,
      kind: Word,
      day: Day,
      at: Epoch,
      key: Nullable(Key),
      value: Nullable(SafeInt),
    },
    strict,
  ),
  mirrorSections: T.Object(
    {
      profileId: Hex32,
      section: T.String({ pattern: "^[a-z][a-z0-9_]{1,31}$", maxLength: 32 }),
      installId: Hex32,
      observedAt: Epoch,
      values: Amounts,
    },
    strict,
  ),
};

export type Section = keyof typeof importRows;
export type ImportRow<S extends Section> = Static<(typeof importRows)[S]>;
export const SECTIONS = Object.keys(importRows) as Section[];

export const rowCheckers = Object.fromEntries(
  SECTIONS.map((s) => [s, TypeCompiler.Compile(importRows[s] as TSchema)]),
) as { [S in Section]: TypeCheck<(typeof importRows)[S]> };
