// The address a request came from: the socket's, or behind your own proxy (TRUST_PROXY=true) the
// last X-Forwarded-For entry, the one that proxy appended.
export function clientAddress(request: Request, server: { requestIP(r: Request): { address: string } | null } | null, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for");
    const last = forwarded?.split(",").pop()?.trim();
    if (last) return last.slice(0, 64);
  }
  return server?.requestIP(request)?.address ?? "unknown";
}
