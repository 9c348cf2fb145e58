// Settings: The listening server: address, public URL, log, shutdown, proxy, catalogue.
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { setting, OptionalUrl, Port, Millis, Bool } from "./setting.ts";

export const serverSettings = {
  host: setting({
    env: "HOST",
    schema: T.String({ minLength: 1, maxLength: 255 }),
    default: "0.0.0.0",
    doc: "Address to listen on.",
  }),
  port: setting({ env: "PORT", schema: Port, default: "8080", doc: "Port to listen on (0 picks a free one)." }),
  baseUrl: setting({
    env: "BASE_URL",
    schema: OptionalUrl,
    default: "",
    doc: "Public address of this service, used for every page link it hands out. Empty: http://localhost:PORT.",
  }),
  logLevel: setting({
    env: "LOG_LEVEL",
    schema: T.Union([T.Literal("debug"), T.Literal("info"), T.Literal("warn"), T.Literal("error")]),
    default: "info",
    doc: "Least severe level written to the JSON log on standard output.",
  }),
  shutdownGraceMs: setting({
    env: "SHUTDOWN_GRACE_MS",
    schema: Millis(0, 120_000),
    default: "10000",
    doc: "On SIGTERM/SIGINT, how long in-flight requests may run before the server closes them.",
  }),
  trustProxy: setting({
    env: "TRUST_PROXY",
    schema: Bool,
    default: "false",
    doc: "true: the client address is the last X-Forwarded-For entry (set only behind your own proxy).",
  }),
  catalogueFile: setting({
    env: "CATALOGUE_FILE",
    schema: T.String({ maxLength: 1024 }),
    default: "",
    doc: "Path of a catalogue file to serve instead of the built-in one (for example the mod's own).",
  }),
} as const;
