// Uploads as the mod builds them, and a signed-in player to send them (development sign-in).
import type { TestApp } from "./app.ts";
import type { Envelope } from "../../src/wire/envelope.ts";

export const ACCOUNT = "0".repeat(32);
export const PROFILE = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";
export const INSTALL_A = "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf";
export const INSTALL_B = "b0b1b2b3b4b5b6b7b8b9babbbcbdbebf";

let batchCounter = 0;
/** A fresh batchId each call (32 hex). */
export const newBatchId = () =>
  (++batchCounter).toString(16).padStart(8, "0") + crypto.randomUUID().replaceAll("-", "").slice(0, 24);

/** A valid envelope; `categories` is derived from the keys unless given. */
export function envelope(t: TestApp, parts: Partial<Envelope> & { install?: string } = {}): Envelope {
  const { install, ...rest } = parts;
  const env: Envelope = {
    schema: 1,
    batchId: newBatchId(),
    sentAt: t.clock.now(),
    mode: "live",
    client: { install: install ?? INSTALL_A, modVersion: "1.4.0", minecraft: "1.21.4", catalogue: t.catalogue.version },
    zone: { id: "Europe/Berlin" },
    settingsVersion: 2,
    profile: { id: PROFILE, cuteName: "Pomegranate" },
    categories: [],
    ...rest,
  };
  if (!parts.categories) env.categories = categoriesOf(t, env);
  return env;
}

export function categoriesOf(t: TestApp, env: Envelope): string[] {
  const keys = [
    ...(env.counters ?? []).flatMap((b) => b.rows.map((r) => r.k)),
    ...(env.sessions ?? []).flatMap((s) => [...s.gains, ...s.costs].map((a) => a.k)),
    ...(env.timeline ?? []).flatMap((e) => (e.key ? [e.key] : [])),
    ...(env.mirror?.sections ?? []).flatMap((s) => s.values.map((a) => a.k)),
  ];
  const present = new Set(keys.map((k) => t.catalogue.categoryOf.get(k.split(".")[0]!)));
  return t.catalogue.categories.filter((c) => present.has(c));
}

export type Uploader = {
  uuid: string;
  auth: { authorization: string };
  send(env: unknown, opts?: { gzip?: boolean }): Promise<Response>;
};

/** Signs a player in (DEV_SIGNIN must be on) with these categories turned on, in the zone given. */
export async function uploader(
  t: TestApp,
  opts: { uuid?: string; name?: string; zone?: string; consent?: string[] } = {},
): Promise<Uploader> {
  const uuid = opts.uuid ?? crypto.randomUUID().replaceAll("-", "");
  const res = await t.postJson("/v1/auth/dev", {
    uuid,
    name: opts.name ?? `P${uuid.slice(0, 8)}`,
    zone: opts.zone ?? "Europe/Berlin",
  });
  const { token } = (await res.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  const consent = opts.consent ?? t.catalogue.categories;
  await t.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ settingsVersion: 1, categories: Object.fromEntries(consent.map((c) => [c, true])) }),
  });
  return {
    uuid,
    auth,
    send: (env, o = {}) => {
      const text = JSON.stringify(env);
      return t.postJson("/v1/stats/ingest", text, { gzip: o.gzip ?? text.length > 8192, headers: auth });
    },
  };
}
