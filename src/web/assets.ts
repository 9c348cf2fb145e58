// The website's own static files, embedded in the binary and served under content-hashed names
// (/assets/<name>.<hash>.<ext>) with immutable caching: a new build gets new URLs.
import styleText from "./style.css" with { type: "text" };
import iconText from "./icon.svg" with { type: "text" };

type Asset = { path: string; body: string; type: string };

const hashOf = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex").slice(0, 12);

function asset(name: string, ext: string, body: string, type: string): Asset {
  return { path: `/assets/${name}.${hashOf(body)}.${ext}`, body, type };
}

export const stylesheet = asset("style", "css", styleText, "text/css; charset=utf-8");

/**
 * The site's icon (four tally marks struck through, in the theme's accent): linked from every page,
 * so a browser never asks for /favicon.ico, which the site does not have (a 404 in every page's
 * console, found when the browser suites looked at one page longer).
 */
export const icon = asset("icon", "svg", iconText, "image/svg+xml");

/** Every hashed asset by its path. */
export const hashedAssets: ReadonlyMap<string, Asset> = new Map([
  [stylesheet.path, stylesheet],
  [icon.path, icon],
]);

export const IMMUTABLE = "public, max-age=31536000, immutable";
