// PGlite's wasm and data bundle, imported as files so `bun build --compile` embeds them in the
// binary; nothing is read from node_modules or the working directory at run time.
import { readFileSync } from "node:fs";
import pgliteWasm from "@electric-sql/pglite/pglite.wasm" with { type: "file" };
import initdbWasm from "@electric-sql/pglite/initdb.wasm" with { type: "file" };
import fsBundle from "@electric-sql/pglite/pglite.data" with { type: "file" };

export type PgliteAssets = {
  pgliteWasmModule: WebAssembly.Module;
  /** A lazy file: PGlite reads it while it opens and keeps no copy here. */
  fsBundle: Blob;
};

let compiled: Promise<PgliteAssets> | undefined;
let compiledInitdb: Promise<WebAssembly.Module> | undefined;

/** Compiles the wasm once per process (it is immutable; every embedded database shares it). */
export function pgliteAssets(): Promise<PgliteAssets> {
  // Read at once, not awaited: called first thing by the entry point (early.ts), the compilation
  // then starts before the rest of the program is evaluated, not after.
  compiled ??= (async () => ({
    pgliteWasmModule: await WebAssembly.compile(readFileSync(pgliteWasm)),
    fsBundle: Bun.file(fsBundle),
  }))();
  return compiled;
}

/** initdb's wasm, compiled only when a database is made from nothing (a seed or a folder needs none). */
export function initdbAssets(): Promise<WebAssembly.Module> {
  compiledInitdb ??= (async () => WebAssembly.compile(await Bun.file(initdbWasm).arrayBuffer()))();
  return compiledInitdb;
}
