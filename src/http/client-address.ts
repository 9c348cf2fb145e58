// The address a request came from: the socket's, or behind your own proxy (TRUST_PROXY=true) the
// last X-Forwarded-For entry, the one that proxy appended.
export function clientAddress(
  request: Request,
  server: { requestIP(r: Request): { address: string } | null } | null,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for");
    const last = forwarded?.split(",").pop()?.trim();
    if (last) return last.slice(0, 64);
  }
  return server?.requestIP(request)?.address ?? "unknown";
}

/**
 * The rate-limit subject of an address: an IPv4 address as it is (an IPv4-mapped IPv6 address
 * too), an IPv6 address by its /64 (one subscriber's prefix: a host picks any of 2^64 addresses in
 * it, so counting each apart would let one client spread over endless buckets).
 */
export function addressSubject(address: string): string {
  const a = address.trim().toLowerCase().replace(/%.*$/, "");
  if (!a.includes(":")) return a;
  const mapped =
    /^(?:0{1,4}:){0,4}:?(?:0{1,4}:)?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a) ??
    /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  if (mapped) return mapped[1]!;
  const halves = a.split("::");
  if (halves.length > 2) return a;
  const groupsOf = (part: string | undefined) => (part ? part.split(":") : []);
  const head = groupsOf(halves[0]);
  const tail = groupsOf(halves[1]);
  // A dotted IPv4 tail stands for two groups.
  const width = (gs: string[]) => gs.reduce((n, g) => n + (g.includes(".") ? 2 : 1), 0);
  const groups =
    halves.length === 2 ? [...head, ...Array(Math.max(0, 8 - width(head) - width(tail))).fill("0"), ...tail] : head;
  const prefix = groups.slice(0, 4);
  if (prefix.length < 4 || prefix.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return a;
  return `${prefix.map((g) => parseInt(g, 16).toString(16)).join(":")}::/64`;
}
