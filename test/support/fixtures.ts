// The golden fixtures (contract 9.6): uploads as the mod emits them, the account they are sent
// for, and the catalogue they were emitted with. The mod's tests emit the same files.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { TestApp } from "./app.ts";
import { uploader } from "./uploads.ts";

export const fixturesDir = join(import.meta.dir, "../../fixtures");
export const fixtureCatalogue = join(fixturesDir, "catalogue.json");

type Account = {
  zone: string;
  signedInAt: string;
  consent: string[];
  consentChanges: Record<string, Record<string, boolean>>;
};
export const fixtureAccount: Account = JSON.parse(readFileSync(join(fixturesDir, "account.json"), "utf8"));

export const fixtureUploads = readdirSync(join(fixturesDir, "uploads"))
  .filter((f) => f.endsWith(".json") && !f.endsWith(".answer.json"))
  .sort()
  .map((f) => ({ name: f.replace(/\.json$/, ""), body: readFileSync(join(fixturesDir, "uploads", f), "utf8") }));

export const expectedAnswerFile = (name: string) => join(fixturesDir, "uploads", `${name}.answer.json`);

/** Sends every fixture upload in order for a new account (the app's clock must start at signedInAt); answers the raw answer texts by name. */
export async function sendFixtures(t: TestApp, order: (names: string[]) => string[] = (names) => names) {
  const u = await uploader(t, { zone: fixtureAccount.zone, consent: fixtureAccount.consent });
  let version = 2;
  const answers = new Map<string, string>();
  const byName = new Map(fixtureUploads.map((f) => [f.name, f.body]));
  for (const name of order([...byName.keys()])) {
    const body = byName.get(name)!;
    const change = fixtureAccount.consentChanges[name];
    if (change) {
      const res = await t.request("/v1/stats/settings", {
        method: "PATCH",
        headers: { ...u.auth, "content-type": "application/json" },
        body: JSON.stringify({ settingsVersion: version, categories: change }),
      });
      version = ((await res.json()) as { settingsVersion: number }).settingsVersion;
    }
    const upload = JSON.parse(body) as { sentAt: number };
    t.clock.set(upload.sentAt + 1000); // each upload arrives 1 s after it was sent
    const res = await u.send(upload);
    answers.set(name, await res.text());
  }
  return { uploader: u, answers };
}

export const FIXTURE_PROFILE = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";
/** The folded reads whose expected bytes live in fixtures/totals/. */
export const totalsReads = {
  "totals.json": `/v1/stats/totals?profile=${FIXTURE_PROFILE}`,
  "days.json": `/v1/stats/days?profile=${FIXTURE_PROFILE}&from=2026-05-01&to=2026-06-30`,
  "series-mining.json": `/v1/stats/series?profile=${FIXTURE_PROFILE}&key=mining.blocks.total&from=2026-05-01&to=2026-06-30`,
  "series-purse.json": `/v1/stats/series?profile=${FIXTURE_PROFILE}&key=farming.purse.coins&from=2026-05-01&to=2026-06-30`,
  "account-days.json": `/v1/stats/days?profile=${"0".repeat(32)}&from=2026-05-01&to=2026-06-30`,
  "periods.json": `/v1/stats/periods?profile=${FIXTURE_PROFILE}&day=2026-06-01`,
};
