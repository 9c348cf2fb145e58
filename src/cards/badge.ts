// A badge: one figure as a small SVG for forum signatures and READMEs, label on the left and
// value on the right, in the light or dark colours the viewer prefers (a media query inside the
// SVG; no script, no external font or picture). Widths are estimated from the characters and
// each text is held to its box with textLength, so it never spills whatever font the viewer has.
import { cut, xmlText } from "./card-svg.ts";

const HEIGHT = 20;
const PAD = 7;

/** Rough advance of an 11px sans-serif character: narrow, wide and the rest. */
function textWidth(s: string): number {
  let w = 0;
  for (const c of s) w += /[iljtfI.,:;'!|() ]/.test(c) ? 3.6 : /[mwMW@%]/.test(c) ? 10 : /[A-Z0-9]/.test(c) ? 7.6 : 6.4;
  return Math.ceil(w);
}

export function badgeSvg(label: string, value: string): string {
  const l = cut(label, 40);
  const v = cut(value, 32);
  const lw = textWidth(l) + 2 * PAD;
  const vw = textWidth(v) + 2 * PAD;
  const w = lw + vw;
  const title = xmlText(`${l}: ${v}`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${HEIGHT}" viewBox="0 0 ${w} ${HEIGHT}" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    "<style>",
    ".l{fill:#eaeef2}.v{fill:#0a58ca}.lt{fill:#1b1f24}.vt{fill:#ffffff}",
    "@media (prefers-color-scheme: dark){.l{fill:#30363d}.v{fill:#6cb6ff}.lt{fill:#e6edf3}.vt{fill:#0d1117}}",
    "</style>",
    `<clipPath id="r"><rect width="${w}" height="${HEIGHT}" rx="4"/></clipPath>`,
    `<g clip-path="url(#r)"><rect class="l" width="${lw}" height="${HEIGHT}"/><rect class="v" x="${lw}" width="${vw}" height="${HEIGHT}"/></g>`,
    `<g font-family="Verdana,DejaVu Sans,Inter,sans-serif" font-size="11">`,
    `<text class="lt" x="${PAD}" y="14" textLength="${lw - 2 * PAD}" lengthAdjust="spacingAndGlyphs">${xmlText(l)}</text>`,
    `<text class="vt" x="${lw + PAD}" y="14" font-weight="700" textLength="${vw - 2 * PAD}" lengthAdjust="spacingAndGlyphs">${xmlText(v)}</text>`,
    "</g></svg>",
  ].join("");
}
