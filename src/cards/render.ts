// SVG to PNG inside the process: resvg's WebAssembly build and the Inter font (SIL Open Font
// Licence 1.1, from @expo-google-fonts/inter; see docs/licences/), all three imported as files
// so `bun build --compile` embeds them in the binary. Nothing is read from node_modules, the
// working directory or the system's fonts at run time, and the renderer fetches nothing: an SVG
// handed to it carries its pictures inline (data: URIs), and loadSystemFonts is off.
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import resvgWasm from "@resvg/resvg-wasm/index_bg.wasm" with { type: "file" };
import interRegular from "@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf" with { type: "file" };
import interBold from "@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf" with { type: "file" };

/** Where the two fonts are (inside the binary once compiled): text-width.ts measures with them. */
export const INTER_REGULAR_FILE: string = interRegular;
export const INTER_BOLD_FILE: string = interBold;

/** The family every card and badge names (the only one the renderer knows). */
export const CARD_FONT = "Inter";

type Renderer = { fonts: Uint8Array[] };
let ready: Promise<Renderer> | undefined;

/** Compiles the wasm and reads the fonts once per process (both immutable). */
function renderer(): Promise<Renderer> {
  ready ??= (async () => {
    const [wasm, regular, bold] = await Promise.all([
      Bun.file(resvgWasm).arrayBuffer(),
      Bun.file(interRegular).arrayBuffer(),
      Bun.file(interBold).arrayBuffer(),
    ]);
    await initWasm(await WebAssembly.compile(wasm));
    return { fonts: [new Uint8Array(regular), new Uint8Array(bold)] };
  })();
  return ready;
}

/** The SVG as a PNG of its own width and height. */
export async function svgToPng(svg: string): Promise<Uint8Array> {
  const { fonts } = await renderer();
  const resvg = new Resvg(svg, {
    font: { fontBuffers: fonts, defaultFontFamily: CARD_FONT, sansSerifFamily: CARD_FONT, loadSystemFonts: false },
    fitTo: { mode: "original" },
  } as ConstructorParameters<typeof Resvg>[1]);
  try {
    const image = resvg.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}
