// What the program starts before the rest of it is loaded. Compiling PGlite's wasm takes about
// 100 ms, on JSC's compiler thread rather than the main one: started here, from the entry point,
// it runs while the main thread evaluates main.ts and every module under it, instead of after.
import { loadConfig } from "./config.ts";
import { pgliteAssets } from "./db/pglite-assets.ts";

/** The commands that open the database (the others never wait for the wasm). */
const OPENS_DATABASE = new Set(["serve", "migrate", "reports", "backup", "restore"]);

export function startEarly(argv: string[]) {
  if (!OPENS_DATABASE.has(argv[0] ?? "serve")) return;
  let embedded: boolean;
  try {
    embedded = !loadConfig().databaseUrl;
  } catch {
    return; // a bad setting: main says which, and never opens the database
  }
  // connectEmbedded awaits this same compilation and reports its failure.
  if (embedded) pgliteAssets().catch(() => {});
}
