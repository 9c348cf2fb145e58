// Players for the boards' tests: signed in, consenting, optionally findable and opted in.
import type { TestApp } from "../support/app.ts";
import { envelope, uploader, type Uploader } from "../support/uploads.ts";

export type BoardPlayer = Uploader & { name: string };

export async function boardPlayer(
  t: TestApp,
  name: string,
  opts: { findable?: boolean; optIn?: { all: boolean; groups: string[] } | null; zone?: string; uuid?: string } = {},
): Promise<BoardPlayer> {
  const p = await uploader(t, { name, zone: opts.zone, uuid: opts.uuid });
  if (opts.findable) {
    const res = await t.request("/v1/stats/settings", {
      method: "PATCH",
      headers: { ...p.auth, "content-type": "application/json" },
      body: JSON.stringify({ settingsVersion: 2, findable: true }),
    });
    if (res.status !== 200) throw new Error(`findable: ${res.status} ${await res.text()}`);
  }
  if (opts.optIn !== null) await optIn(t, p, opts.optIn ?? { all: true, groups: [] });
  return { ...p, name };
}

export async function optIn(t: TestApp, p: Uploader, body: { all: boolean; groups: string[] }) {
  const res = await t.request("/v1/boards/membership", {
    method: "PUT",
    headers: { ...p.auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`opt-in: ${res.status} ${await res.text()}`);
  return (await res.json()) as { all: boolean; removed?: number };
}

/** Uploads day rows (profileId: the test profile) as absolute values: { day: { key: value } }. */
export async function upload(
  t: TestApp,
  p: Uploader,
  days: Record<string, Record<string, number>>,
  profileId?: string,
) {
  const env = envelope(t, {
    counters: Object.entries(days).map(([day, rows]) => ({
      profileId: profileId ?? envelope(t).profile.id,
      scope: "day",
      day,
      rows: Object.entries(rows).map(([k, v]) => ({ k, v })),
    })),
  });
  const res = await p.send(env);
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
}

export type PageJson = {
  total: number;
  page: number;
  pages: number;
  rows: { rank: number; name: string | null; cuteName: string | null; value: number; you: boolean }[];
  me: { rank: number; rows: { rank: number; name: string | null; value: number; you: boolean }[] }[];
  window: { at: string; open: boolean; label: string };
};

export async function boardJson(t: TestApp, path: string, auth?: { authorization: string }): Promise<PageJson> {
  const res = await t.request(path, { headers: auth ?? {} });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as PageJson;
}
