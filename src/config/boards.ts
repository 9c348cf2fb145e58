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
} as const;
