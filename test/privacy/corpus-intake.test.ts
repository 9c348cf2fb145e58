// The real-text corpus through the service (issue 13): every line with a name, sent in bug reports,
// leaves no name in the stored problems and samples, in what is posted to the maintainers' chat,
// or in `tally reports`; and a sample of each family, sent in an upload, is refused
// denylisted_string with nothing stored.
import { afterAll, describe, expect, test } from "bun:test";
import { testApp, loopbackFetch } from "../support/app.ts";
import { fakeDiscord } from "../support/fakes/discord.ts";
import { drainChatOutbox } from "../../src/reports/chat-outbox.ts";
import { samplesOf } from "../../src/reports/reports.query.ts";
import { problemsByCount } from "../../src/reports/problems-list.query.ts";
import { pendingOutbox } from "../../src/reports/chat.query.ts";
import { problemsTable } from "../../src/reports/problems-list.ts";
import { report } from "../reports/report.ts";
import { envelope, uploader } from "../support/uploads.ts";
import { isEmpty, storedState } from "../support/stored.ts";
import { nameLines, stillThere } from "./corpus.ts";

const discord = fakeDiscord();
// One thread per report: room for all of them in the fake's rate-limit bucket.
discord.state.limit = 100_000;
const t = await testApp({
  settings: { chatWebhookUrl: discord.webhookUrl, reportRateLimit: 0, devSignin: true },
  fetch: loopbackFetch,
  now: "2026-06-01T12:00:00Z",
});
afterAll(async () => {
  discord.stop();
  await t.close();
});

/**
 * Capitals only: digits in a title are parameterised, and so is a pseudonym (a lower-case "qzb" is a
 * name to the report scrubber's fallback); each report should stay its own problem.
 */
const letters = (i: number) => [0, 1, 2].map((d) => String.fromCharCode(65 + (Math.floor(i / 26 ** d) % 26))).join("");
const oneLine = (s: string) => s.replaceAll("\n", " ");

describe("bug reports carrying the corpus", () => {
  test("no name is stored, posted or listed by tally reports", async () => {
    // Every line but the development part's known misses (`miss`, corpus.ts).
    const lines = nameLines.filter((l) => !l.miss);
    // Six lines a report: one in the title, two in the message, two in the steps, all six in the trace.
    for (let i = 0; i < lines.length; i += 6) {
      const six = lines.slice(i, i + 6).map((l) => l.text);
      const res = await t.postJson(
        "/v1/reports/general",
        report({
          title: `Case ${letters(i)}: ${oneLine(six[0]!)}`.slice(0, 200),
          message: six.slice(1, 3).join("\n") || six[0],
          steps: six.slice(3, 5).join("\n") || six[0],
          stackTrace: six.join("\n"),
        }),
      );
      expect(res.status).toBe(200);
    }
    for (let round = 0; round < 200 && (await pendingOutbox(t.db)).length > 0; round++) await drainChatOutbox(t);
    const problems = await problemsByCount(t.db);
    expect(problems.length).toBe(Math.ceil(lines.length / 6));
    const stored = JSON.stringify(await Promise.all(problems.map(async (p) => [p, await samplesOf(t.db, p.id)])));
    const posted = JSON.stringify(discord.received);
    const listed = await problemsTable(t.db);
    expect(discord.threads.size).toBe(problems.length);
    const names = [...new Set(lines.flatMap((l) => l.names))];
    const left = names.filter((n) => stillThere(stored, n) || stillThere(posted, n) || stillThere(listed, n));
    expect(left).toEqual([]);
  }, 240_000);
});

describe("uploads carrying the corpus", () => {
  const sample = [...new Set(nameLines.map((l) => l.family))].flatMap((f) =>
    nameLines.filter((l) => l.family === f && !l.miss && l.text.length <= 64 && !l.text.includes("\n")).slice(0, 4),
  );
  let u: Awaited<ReturnType<typeof uploader>>;
  test.each(sample.map((l) => [l.family, l.text]))(
    "[%s] %j is refused denylisted_string, nothing stored",
    async (_f, text) => {
      u ??= await uploader(t);
      const env = envelope(t, {
        counters: [
          {
            profileId: "4f1c2a3b4d5e6f708192a3b4c5d6e7f8",
            scope: "day",
            day: "2026-06-01",
            rows: [{ k: "mining.blocks.stone", v: 1 }],
          },
        ],
      });
      env.client.modVersion = text;
      const res = await u.send(env);
      const body = await res.text();
      expect(res.status).toBe(422);
      expect(JSON.parse(body).error).toMatchObject({ code: "denylisted_string", path: "/client/modVersion" });
      expect(isEmpty(await storedState(t.db, u.uuid))).toBe(true);
    },
  );
});
