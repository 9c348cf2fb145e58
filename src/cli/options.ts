// What the command line takes besides its arguments: where it writes, its environment, and (tests)
// when a server stops and where it says it listens.
import type { ConnectOptions } from "../db/connect-embedded.ts";

export type MainOptions = ConnectOptions & {
  env?: Record<string, string | undefined>;
  out?: (text: string) => void;
  err?: (text: string) => void;
  /** Resolves when the server should stop (tests); by default SIGTERM or SIGINT. */
  stopSignal?: Promise<unknown>;
  /** Where log lines go (standard output by default). */
  logWrite?: (line: string) => void;
  /** Called once the server listens, with its address. */
  onListening?: (url: string) => void;
};
