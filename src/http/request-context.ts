// Per-request facts every hook may need (request id, start time, how the body arrived), kept beside
// the Request object rather than in process-wide state.
export type BodyInfo = { gzip: boolean; wireBytes: number; decodedBytes: number };
type RequestFacts = { id: string; startedAt: number; body?: BodyInfo };

const facts = new WeakMap<Request, RequestFacts>();

const incomingId = /^[A-Za-z0-9._-]{8,64}$/;

export function beginRequest(request: Request): RequestFacts {
  const given = request.headers.get("x-request-id");
  const id = given && incomingId.test(given) ? given : crypto.randomUUID().replaceAll("-", "").slice(0, 16);
  const f = { id, startedAt: performance.now() };
  facts.set(request, f);
  return f;
}

export function requestFacts(request: Request): RequestFacts | undefined {
  return facts.get(request);
}

export function requestId(request: Request): string | undefined {
  return facts.get(request)?.id;
}

export function setBodyInfo(request: Request, info: BodyInfo) {
  const f = facts.get(request);
  if (f) f.body = info;
}
