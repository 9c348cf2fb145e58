// Settings: Boards (src/boards/).
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { setting } from "./setting.ts";

export const boardsSettings = {
  boardsFile: setting({
    env: "BOARDS_FILE",
    schema: T.String({ maxLength: 1024 }),
    default: "",
    doc: 'Path of a JSON file of boards (docs/decisions.md, "Boards: definitions") ranked instead of the built-in set; checked against the catalogue at start.',
  }),
  groupMaxMembers: setting({
    env: "GROUP_MAX_MEMBERS",
    schema: T.Integer({ minimum: 2, maximum: 1_000 }),
    default: "100",
    doc: "Most members a player group holds, its creator included; joining a full group answers 409 group_full.",
  }),
  boardsRefreshMs: setting({
    env: "BOARDS_REFRESH_MS",
    schema: T.Integer({ minimum: 0, maximum: 3_600_000 }),
    default: "5000",
    doc: "How often the boards.refresh job moves the scores uploads touched (an upload only notes them, one statement). 0: after each upload, in the upload's wake (costs the upload about twice the CPU).",
  }),
  groupJoinFailures: setting({
    env: "GROUP_JOIN_FAILURES_PER_HOUR",
    schema: T.Integer({ minimum: 0, maximum: 10_000 }),
    default: "20",
    doc: "Wrong invite codes one client address (IPv6: one /64) may try per hour; beyond, 429 rate_limited. 0: no limit.",
  }),
} as const;
