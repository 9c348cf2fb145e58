// The scope table, enforced on every operation of the OpenAPI document: a token of each scope is
// let through where the table says, and refused 403 with the code the document names elsewhere.
// A route added without a line here fails the first test: every route declares its token policy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { uploader, PROFILE, type Uploader } from "../support/uploads.ts";
import { codeOf, makeToken, type Made } from "./support.ts";

/**
 * "public": no sign-in; []: device sessions only; otherwise the scopes that admit a token.
 * { public: scopes }: no sign-in, and a token with one of these scopes reads more (its own tests:
 * test/web/public-page-token.test.ts).
 */
type Policy = "public" | string[] | { public: string[] };
const POLICY: Record<string, Policy> = {
  "GET /v1/health": "public",
  "GET /v1/stats/catalogue": "public",
  // The owner's page:read token reads their page that is not findable.
  "GET /v1/pages/{name}": { public: ["page:read"] },
  "GET /v1/boards": "public",
  "GET /v1/boards/{id}": "public",
  "GET /v1/boards/membership": [],
  "PUT /v1/boards/membership": [],
  // Groups: the mod's sign-in; a group's board is public when the group is (else members only, 404 to others).
  "GET /v1/groups": [],
  "POST /v1/groups": [],
  "POST /v1/groups/join": [],
  "GET /v1/groups/{id}": [],
  "PATCH /v1/groups/{id}": [],
  "DELETE /v1/groups/{id}": [],
  "POST /v1/groups/{id}/code": [],
  "DELETE /v1/groups/{id}/membership": [],
  "DELETE /v1/groups/{id}/members/{name}": [],
  "GET /v1/groups/{id}/boards/{board}": "public",
  "POST /v1/stats/import": [],
  "POST /v1/auth/challenge": "public",
  "POST /v1/auth/verify": "public",
  "POST /v1/auth/dev": "public",
  "GET /v1/auth/session": [],
  "GET /v1/auth/sessions": [],
  "DELETE /v1/auth/sessions": [],
  // Recaps are private until shared: the mod's sign-in only.
  "GET /v1/stats/recaps": [],
  "POST /v1/stats/recaps/{period}/share": [],
  "DELETE /v1/stats/recaps/{period}/share": [],
  "DELETE /v1/auth/sessions/{id}": [],
  "GET /v1/stats/settings": [],
  "PATCH /v1/stats/settings": [],
  "GET /v1/stats/me/status": [],
  "POST /v1/stats/me/page-token": [],
  "POST /v1/stats/share/rotate": [],
  "DELETE /v1/stats/share": [],
  "POST /v1/stats/ingest": [],
  "GET /v1/stats/profiles": ["stats:read", "page:read"],
  "GET /v1/stats/totals": ["stats:read", "page:read"],
  "GET /v1/stats/series": ["stats:read", "page:read"],
  "GET /v1/stats/days": ["stats:read"],
  "GET /v1/stats/periods": ["stats:read", "page:read"],
  "GET /v1/stats/export": ["export"],
  "GET /v1/stats/export.csv": ["export"],
  "DELETE /v1/stats/data": [],
  "DELETE /v1/stats/account": [],
  "POST /v1/stats/tokens": [],
  "GET /v1/stats/tokens": [],
  "DELETE /v1/stats/tokens": [],
  "DELETE /v1/stats/tokens/{id}": [],
  "GET /v1/gamemode/profiles/{uuid}": "public",
  "GET /v1/players/{name}": "public",
  "GET /v1/players/{name}/summary": "public",
  "GET /v1/players/{name}/profiles": "public",
  "GET /v1/assets/head/{file}": "public",
  "GET /v1/assets/skin/{file}": "public",
  "GET /v1/assets/item/{file}": "public",
  "POST /v1/reports/{tool}": "public",
  "GET /u/{name}/card.png": "public",
  "GET /s/{key}/card.png": "public",
  "GET /p/{name}/card.png": "public",
  "GET /u/{name}/badge/{file}": "public",
  "GET /u/{name}/groups/{id}/boards/{board}/badge.svg": "public",
  "GET /u/{name}/groups/{id}/boards/{board}/card.png": "public",
  "GET /u/{name}/boards/{id}/badge.svg": "public",
  "GET /u/{name}/boards/{id}/card.png": "public",
};
const SCOPES = ["stats:read", "page:read", "export"];

type Operation = {
  security: Record<string, string[]>[];
  "x-tally-token-scopes"?: string[];
  responses: Record<
    string,
    {
      content?: {
        "application/json": { schema: { properties: { error: { properties: { code: { enum: string[] } } } } } };
      };
    }
  >;
};
let t: TestApp;
let p: Uploader;
let ops: [string, Operation][];
const tokens: Record<string, Made> = {};
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, tokenRateLimit: 10_000 }, now: "2026-06-01T12:00:00Z" });
  p = await uploader(t, { name: "Scoped", zone: "UTC" });
  for (const scope of SCOPES) tokens[scope] = await makeToken(t, p.auth, { label: scope, scopes: [scope] });
  tokens.all = await makeToken(t, p.auth, { label: "all", scopes: SCOPES });
  const doc = (await (await t.request("/v1/openapi.json")).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  ops = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation]),
  );
});
afterAll(() => t.close());

/** A request to an operation with its path parameters and required query filled in. */
function call(operation: string, auth: { authorization: string }) {
  const [method, template] = operation.split(" ") as [string, string];
  const path = template
    .replace("/v1/auth/sessions/{id}", `/v1/auth/sessions/${"0".repeat(24)}`)
    .replace("{id}", "0".repeat(16));
  const query = `?profile=${PROFILE}&key=mining.blocks.stone`;
  const body = method === "GET" || method === "DELETE" ? undefined : "{}";
  return t.request(path + query, {
    method,
    headers: { ...auth, ...(body ? { "content-type": "application/json" } : {}) },
    body,
  });
}

test("every operation of the OpenAPI document has a token policy in this table, and the document says the same", () => {
  expect(ops.map(([name]) => name).sort()).toEqual(Object.keys(POLICY).sort());
  for (const [name, op] of ops) {
    const policy = POLICY[name]!;
    if (policy === "public") {
      expect({ name, security: op.security }).toEqual({ name, security: [] });
      continue;
    }
    if (!Array.isArray(policy)) {
      expect({ name, scopes: op["x-tally-token-scopes"] }).toEqual({ name, scopes: policy.public });
      expect(op.security).toEqual([{}, { personalToken: policy.public }]);
      continue;
    }
    expect({ name, scopes: op["x-tally-token-scopes"] }).toEqual({ name, scopes: policy });
    expect(op.security).toEqual([{ bearer: [] }, ...(policy.length ? [{ personalToken: policy }] : [])]);
  }
});

describe.each(SCOPES.concat("all"))("a token of scope %s", (scope) => {
  const signedInOps = () => Object.entries(POLICY).filter((e): e is [string, string[]] => Array.isArray(e[1]));
  test("is let through exactly where the table says, and refused 403 with a documented code elsewhere", async () => {
    const outcomes: string[] = [];
    for (const [name, policy] of signedInOps()) {
      const res = await call(name, tokens[scope]!.auth);
      const allowed = policy.some((s) => tokens[scope]!.scopes.includes(s));
      if (allowed) {
        outcomes.push(`${name}: ${res.status === 401 || res.status === 403 ? `refused ${res.status}` : "allowed"}`);
        await res.body?.cancel();
        continue;
      }
      const code = res.status === 403 ? await codeOf(res) : `status ${res.status}`;
      const documented = ops.find(([n]) => n === name)![1].responses["403"]?.content?.["application/json"].schema
        .properties.error.properties.code.enum;
      outcomes.push(
        `${name}: ${documented?.includes(code) ? "refused as documented" : `refused ${code}, not documented`}`,
      );
      expect(code).toBe(policy.length ? "missing_scope" : "token_not_accepted");
    }
    expect(outcomes).toEqual(
      signedInOps().map(([name, policy]) =>
        policy.some((s) => tokens[scope]!.scopes.includes(s)) ? `${name}: allowed` : `${name}: refused as documented`,
      ),
    );
  });
});

test("after all that, the account and its tokens are untouched: nothing a token sent wrote or revoked", async () => {
  const list = (await (await t.request("/v1/stats/tokens", { headers: p.auth })).json()) as { tokens: unknown[] };
  expect(list.tokens).toHaveLength(4);
  expect((await t.request("/v1/stats/settings", { headers: p.auth })).status).toBe(200);
  expect((await t.request("/v1/auth/sessions", { headers: p.auth })).status).toBe(200);
});
