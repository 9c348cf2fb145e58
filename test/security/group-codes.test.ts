// Group invite codes (issue 35) are 192 random bits, and each client address may try
// GROUP_JOIN_FAILURES_PER_HOUR wrong ones an hour: past that, every try is refused 429 before it is
// looked at (the right code included), so guessing is hopeless. Right codes never use the budget.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { uploader, type Uploader } from "../support/uploads.ts";

let t: TestApp;
let owner: Uploader;
let guesser: Uploader;
let code: string;
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, groupJoinFailures: 3 }, now: "2026-11-18T12:00:00Z" });
  owner = await uploader(t, { name: "Code_Keeper" });
  guesser = await uploader(t, { name: "Code_Guesser" });
  const res = await t.request("/v1/groups", {
    method: "POST",
    headers: { ...owner.auth, "content-type": "application/json" },
    body: JSON.stringify({ title: "Locked door" }),
  });
  code = ((await res.json()) as { inviteCode: string }).inviteCode;
});
afterAll(() => t?.close());

const join = async (p: Uploader, c: string) => {
  const res = await t.request("/v1/groups/join", {
    method: "POST",
    headers: { ...p.auth, "content-type": "application/json" },
    body: JSON.stringify({ code: c }),
  });
  return { status: res.status, code: ((await res.json()) as { error?: { code: string } }).error?.code };
};

test("an invite code is 32 base64url characters (192 bits)", () => {
  expect(code).toMatch(/^[A-Za-z0-9_-]{32}$/);
});

test("wrong codes past the address's hourly limit are refused, the right one too, until the hour passes", async () => {
  // The owner joining their own group with the right code uses none of the budget.
  for (let i = 0; i < 5; i++) expect((await join(owner, code)).status).toBe(200);
  const guesses = ["A".repeat(32), "B".repeat(32), "not even a code", "C".repeat(32)];
  const answers = [];
  for (const g of guesses) answers.push(await join(guesser, g));
  expect(answers).toEqual([
    { status: 404, code: "unknown_group" },
    { status: 404, code: "unknown_group" },
    { status: 404, code: "unknown_group" },
    { status: 429, code: "rate_limited" },
  ]);
  // The right code from the same address is refused too: a lucky guess past the limit is not told.
  expect(await join(guesser, code)).toEqual({ status: 429, code: "rate_limited" });
  t.clock.advance(3_600_000);
  expect((await join(guesser, code)).status).toBe(200);
});
