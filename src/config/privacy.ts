// Settings: Privacy: the pseudonyms of player names (src/privacy/).
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { Bool, setting } from "./setting.ts";

export const privacySettings = {
  pseudonymKey: setting({
    env: "PSEUDONYM_KEY",
    schema: T.Union([T.String({ minLength: 32, maxLength: 256 }), T.Literal("")]),
    default: "",
    doc: "Key of the player-name pseudonyms in bug reports. Empty: a random key generated once and kept in the database.",
    secret: true,
  }),
  privacyUnknownWords: setting({
    env: "PRIVACY_UNKNOWN_WORDS",
    schema: Bool,
    default: "true",
    doc: "true: a bug report's word with a player name's marks (a digit, an underscore, a lower-case start or an inner capital) that is no English word, no known game or tool word and no code is replaced by a pseudonym, wherever it stands (src/privacy/unknown-words.ts), and an upload or import carrying such a word in a text of several words is refused denylisted_string. false: only the name families' rules replace names and refuse uploads.",
  }),
} as const;
