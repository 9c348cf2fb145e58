// The golden fixtures (contract 9.6): the mod's uploads are ingested in order and every answer is
// compared byte for byte with its expected file; replaying them gives byte-identical stored state.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { testApp, type TestApp } from "../support/app.ts";
import {
  expectedAnswerFile,
  fixtureAccount,
  fixtureCatalogue,
  fixtureUploads,
  sendFixtures,
} from "../support/fixtures.ts";
import { storedState } from "../support/stored.ts";

let t: TestApp;
beforeAll(
  async () =>
    (t = await testApp({
      settings: { devSignin: true, catalogueFile: fixtureCatalogue },
      now: fixtureAccount.signedInAt,
    })),
);
afterAll(() => t.close());

const pretty = (text: string) => JSON.stringify(JSON.parse(text), null, 2) + "\n";
const stateBytes = async (uuid: string) =>
  JSON.stringify(await storedState(t.db, uuid), (k, v) => (k === "uuid" ? undefined : v));

test("every fixture answer matches its expected file byte for byte; replays change nothing", async () => {
  expect(fixtureUploads.length).toBeGreaterThanOrEqual(12);
  const first = await sendFixtures(t);
  for (const { name } of fixtureUploads) {
    expect({ name, answer: pretty(first.answers.get(name)!) }).toEqual({
      name,
      answer: readFileSync(expectedAnswerFile(name), "utf8"),
    });
  }
  const once = await stateBytes(first.uploader.uuid);
  expect(JSON.parse(once).days.length).toBeGreaterThan(5);

  // The same uploads for the same account again: every one a duplicate, nothing changes.
  for (const { body } of fixtureUploads) {
    const res = await first.uploader.send(JSON.parse(body));
    expect(((await res.json()) as { duplicate: boolean }).duplicate).toBe(true);
  }
  expect(await stateBytes(first.uploader.uuid)).toBe(once);

  // A second account receiving the same uploads stores the same bytes.
  t.clock.set(fixtureAccount.signedInAt);
  const second = await sendFixtures(t);
  expect(await stateBytes(second.uploader.uuid)).toBe(once);
});
