// The mechanics of a signed-in route: a plugin that gives every route of the module using it
// `signedIn` ({ uuid, sessionId }), from a check of the request's Authorization header that the
// caller supplies (auth/auth-guard.ts supplies the device-session check). It runs before body
// validation, so a request without a valid token is told 401 whatever its body holds.
import { Elysia } from "elysia";

export type SignedIn = { uuid: string; sessionId: string };

/** Answers who signed in from an Authorization header, or throws the 401. */
export type Authenticate = (authorization: string | null) => Promise<SignedIn>;

/** Marks the guard's hook, so the OpenAPI document knows which routes need a token (http/openapi.ts). */
export const SIGNED_IN = Symbol.for("tally.signedIn");

export function signedInGuard(authenticate: Authenticate) {
  const guard = async ({ request }: { request: Request }) => ({
    signedIn: await authenticate(request.headers.get("authorization")),
  });
  // Unnamed on purpose: Elysia de-duplicates named plugins, and every module needs its own guard.
  return new Elysia().derive({ as: "scoped" }, Object.assign(guard, { [SIGNED_IN]: true }));
}
