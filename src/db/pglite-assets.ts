// PGlite's wasm and data bundle, imported as files so `bun build --compile` embeds them in the
// binary; nothing is read from node_modules or the working directory at run time.
import pgliteWasm from "@electric-sql/pglite/pglite.wasm" with { type: "file" };
import initdbWasm from "@electric-sql/pglite/initdb.wasm" with { type: "file" };
import fsBundle from "@electric-sql/pglite/pglite.data" with { type: "file" };

export type PgliteAssets = {
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
  fsBundle: Blob;
};

let compiled: Promise<PgliteAssets> | undefined;

/** Compiles the wasm once per process (it is immutable; every embedded database shares it). */
export function pgliteAssets(): Promise<PgliteAssets> {
  compiled ??= (async () => {
    const [pg, initdb, bundle] = await Promise.all([
      Bun.file(pgliteWasm).arrayBuffer(),
      Bun.file(initdbWasm).arrayBuffer(),
      Bun.file(fsBundle).arrayBuffer(),
    ]);
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([
      WebAssembly.compile(pg),
      WebAssembly.compile(initdb),
    ]);
    return { pgliteWasmModule, initdbWasmModule, fsBundle: new Blob([bundle]) };
  })();
  return compiled;
}
