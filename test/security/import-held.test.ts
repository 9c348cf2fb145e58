// An import file is held in memory while it is imported (read twice: checked, then applied), so its
// place in the large bodies' pool, and its account's one body in flight, last until the import is
// answered: the same account cannot send the next file meanwhile and hold two (issue 37).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { fixtureCatalogue } from "../support/fixtures.ts";
import { uploader, INSTALL_A, PROFILE, type Uploader } from "../support/uploads.ts";

setDefaultTimeout(120_000);

const TODAY = "2026-06-01";
let t: TestApp;
let player: Uploader;
beforeAll(async () => {
  t = await testApp({
    settings: { devSignin: true, catalogueFile: fixtureCatalogue, importBatchRows: 10 },
    now: `${TODAY}T12:00:00Z`,
  });
  player = await uploader(t, { zone: "UTC" });
});
afterAll(() => t.close());

/** A file of `n` sessions: slow to apply in batches of 10, so the test can speak while it runs. */
function file(n: number) {
  const at = Date.parse(`${TODAY}T10:00:00Z`);
  const sessions = Array.from({ length: n }, (_, i) => ({
    id: `s${i}`,
    profileId: PROFILE,
    installId: INSTALL_A,
    activity: "mining",
    day: TODAY,
    startedAt: at,
    endedAt: at + 1000,
    gains: [],
    costs: [],
  }));
  const doc = {
    service: "tally",
    format: 2,
    account: { uuid: player.uuid, settings: { zone: "UTC" } },
    profiles: [{ profileId: PROFILE, cuteName: "Pomegranate", firstSeenAt: 1, lastSeenAt: 2 }],
    sessions,
  };
  return Bun.gzipSync(new TextEncoder().encode(JSON.stringify(doc)));
}

/** Posts the file as a stream; `sent` resolves once the service has read its last byte. */
function post(bytes: Uint8Array<ArrayBuffer>) {
  let sent!: () => void;
  const read = new Promise<void>((resolve) => (sent = resolve));
  let given = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (given) {
        controller.close();
        sent();
        return;
      }
      given = true;
      controller.enqueue(bytes);
    },
  });
  const answer = t.request("/v1/stats/import", {
    method: "POST",
    body,
    headers: {
      ...player.auth,
      "content-type": "application/json",
      "content-encoding": "gzip",
      "content-length": String(bytes.byteLength),
    },
    duplex: "half",
  } as RequestInit);
  return { read, answer };
}

test("a second file of the same account while the first is imported: 429 too_many_bodies, the first taken", async () => {
  const first = post(file(3000));
  await first.read;
  const second = await post(file(1)).answer;
  expect(second.status).toBe(429);
  expect(((await second.json()) as { error: { code: string } }).error.code).toBe("too_many_bodies");
  const answer = await first.answer;
  expect(answer.status).toBe(200);
  expect(((await answer.json()) as { counts: { sessions: { added: number } } }).counts.sessions.added).toBe(3000);
  // Answered, the account may send its next file.
  expect((await post(file(1)).answer).status).toBe(200);
});
