// Comparing a presented secret (a bearer token of an operator route) in constant time.
import { timingSafeEqual } from "node:crypto";

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** True when the request carries `Authorization: Bearer <token>`. */
export const hasBearer = (request: Request, token: string) => sameSecret(request.headers.get("authorization") ?? "", `Bearer ${token}`);
