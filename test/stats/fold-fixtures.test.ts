// Determinism (contract 1.2): the fixture uploads fold to the bytes in fixtures/totals, whether sent
// in order, shuffled (where the contract makes order irrelevant) or twice.
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { testApp, type TestApp } from "../support/app.ts";
import { fixtureAccount, fixtureCatalogue, fixturesDir, fixtureUploads, sendFixtures, totalsReads } from "../support/fixtures.ts";
import type { Uploader } from "../support/uploads.ts";

const opened: TestApp[] = [];
// Each test's databases close when it ends, so memory stays that of one test.
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});
const open = async () => {
  const t = await testApp({ settings: { devSignin: true, catalogueFile: fixtureCatalogue }, now: fixtureAccount.signedInAt });
  opened.push(t);
  return t;
};
const read = async (t: TestApp, u: Uploader) => {
  const out: Record<string, string> = {};
  for (const [file, path] of Object.entries(totalsReads)) out[file] = JSON.stringify(await (await t.request(path, { headers: u.auth })).json(), null, 2) + "\n";
  return out;
};
const expected = Object.fromEntries(Object.keys(totalsReads).map((file) => [file, readFileSync(join(fixturesDir, "totals", file), "utf8")]));

test("in order, the fixtures fold to the expected bytes; sent again, nothing changes", async () => {
  const t = await open();
  const { uploader } = await sendFixtures(t);
  expect(await read(t, uploader)).toEqual(expected);
  for (const { body } of fixtureUploads) await uploader.send(JSON.parse(body));
  expect(await read(t, uploader)).toEqual(expected);
});

test.each([7, 42, 1234])("shuffled (seed %d), the uploads before the consent change fold to the same bytes", async (seed) => {
  const t = await open();
  const reorder = (names: string[]) => {
    // The consent change and the replay keep their places; everything before them is shuffled.
    const head = names.filter((n) => n < "11");
    let s = seed;
    for (let i = head.length - 1; i > 0; i--) {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      const j = s % (i + 1);
      [head[i], head[j]] = [head[j]!, head[i]!];
    }
    return [...head, ...names.filter((n) => n >= "11")];
  };
  const { uploader } = await sendFixtures(t, reorder);
  expect(await read(t, uploader)).toEqual(expected);
});
