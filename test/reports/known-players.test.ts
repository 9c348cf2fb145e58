// Bug intake replaces the names this instance knows are players' (issue 36, src/privacy/known-names.ts):
// an account's name and a name the profile lookups cached, wherever it stands in a report's free text,
// in sentences no rule reads. The sentences are the development part's (test/privacy/corpus/names.jsonl),
// where the rules leave the name.
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { emptyTables, testDatabase } from "../support/db.ts";
import type { Database } from "../../src/db/database.ts";
import { loopbackFetch, testApp, type TestApp } from "../support/app.ts";
import { fakeIdentity } from "../support/fakes/identity.ts";
import { fakeNames } from "../support/fakes/names.ts";
import { signIn } from "../support/players.ts";
import { report } from "./report.ts";
import { samplesOf } from "../../src/reports/reports.query.ts";
import { scrubText } from "../../src/privacy/scrub.ts";
import { nameLines } from "../privacy/corpus.ts";

setDefaultTimeout(30_000);

// Players who use the mod (they sign in) and one only looked up (a party member's profile).
const tezkerek = { uuid: "1a2b3c4d5e6f708192a3b4c5d6e7f809", name: "Tezkerek", accessToken: "tezkerek-token" };
const crash = { uuid: "2b3c4d5e6f708192a3b4c5d6e7f8091a", name: "Crash", accessToken: "crash-token" };
const everlasting = { uuid: "3c4d5e6f708192a3b4c5d6e7f8091a2b", name: "Everlastinggit" };

/** A development sentence that holds `name`, with its source there. */
function sentence(name: string): string {
  const line = nameLines.find((l) => l.names.includes(name));
  if (!line?.source) throw new Error(`no development sentence names ${name}`);
  return line.text;
}

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.close());

const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
  await emptyTables(database.db);
});

async function setup(): Promise<TestApp> {
  const identity = fakeIdentity([tezkerek, crash]);
  const names = fakeNames([everlasting]);
  opened.push({ close: identity.stop }, { close: names.stop });
  const t = await testApp({
    database,
    settings: { identityUrl: identity.url, namesUrl: names.url, authRateLimit: 0, lookupRateLimit: 0 },
    fetch: loopbackFetch,
  });
  opened.push(t);
  await signIn(t, identity, tezkerek);
  await signIn(t, identity, crash);
  expect((await t.request(`/v1/players/${everlasting.name}`)).status).toBe(200);
  return t;
}

async function stored(t: TestApp, body: Record<string, unknown>) {
  const res = await t.postJson("/v1/reports/general", report(body));
  expect(res.status).toBe(200);
  const { problemId } = (await res.json()) as { problemId: number };
  const [sample] = await samplesOf(t.db, problemId);
  return JSON.stringify(sample);
}

describe("a name this instance knows is a player's", () => {
  test("an account's name and a looked-up name are replaced where no rule reads them", async () => {
    const helped = sentence("Tezkerek");
    const leader = sentence("Everlastinggit");
    // The rules alone leave both: the sentences are known misses of the development part.
    expect(scrubText("k".repeat(40), `${helped}\n${leader}`)).toContain("Tezkerek");
    expect(scrubText("k".repeat(40), `${helped}\n${leader}`)).toContain("Everlastinggit");
    const t = await setup();
    const sample = await stored(t, { title: "Scythes gone after a crash", message: helped, steps: leader });
    expect(sample).not.toContain("Tezkerek");
    expect(sample).not.toContain("Everlastinggit");
    expect(sample).toContain("then helped player-");
  });

  test("whatever its case, in every field of the report", async () => {
    const t = await setup();
    const sample = await stored(t, {
      title: "tezkerek cannot open the menu",
      message: "It happens to TEZKEREK too",
      steps: "1. Join with Tezkerek",
    });
    expect(sample.toLowerCase()).not.toContain("tezkerek");
  });

  test("a player named like a word of English or the game does not take that word from reports", async () => {
    const t = await setup();
    const sample = await stored(t, { title: "Crash when opening the menu", message: "The crash happens every time" });
    expect(sample).toContain("Crash when opening the menu");
    expect(sample).toContain("The crash happens every time");
  });

  test("a name nobody here has signed in with or looked up is left to the rules", async () => {
    const t = await setup();
    const sample = await stored(t, { title: "Scythes gone", message: "then helped Zorvath, then the server crashed" });
    expect(sample).toContain("Zorvath");
  });
});
