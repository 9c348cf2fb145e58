// The website's own static files, embedded in the binary and served under content-hashed names
// (/assets/<name>.<hash>.<ext>) with immutable caching: a new build gets new URLs.
import styleText from "./style.css" with { type: "text" };

type Asset = { path: string; body: string; type: string };

const hashOf = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex").slice(0, 12);

function asset(name: string, ext: string, body: string, type: string): Asset {
  return { path: `/assets/${name}.${hashOf(body)}.${ext}`, body, type };
}

export const stylesheet = asset("style", "css", styleText, "text/css; charset=utf-8");

/** Every hashed asset by its path. */
export const hashedAssets: ReadonlyMap<string, Asset> = new Map([[stylesheet.path, stylesheet]]);

export const IMMUTABLE = "public, max-age=31536000, immutable";
