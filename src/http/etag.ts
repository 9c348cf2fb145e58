// Conditional GETs: does an If-None-Match header name this entity tag (weak or strong, or "*")?
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === etag || tag === "*";
  });
}
