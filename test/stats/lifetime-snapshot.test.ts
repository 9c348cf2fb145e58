// A large profile's lifetime figures kept in the database beside the memo (issue 40): a memo that
// has never read the profile (a restart, another instance, an account it forgot) answers from that
// copy for the same state and labels, never for another. (Erasure, import and retention deleting
// the copies: test/security/lifetime-copies.test.ts.)
import { afterEach, describe, expect, test } from "bun:test";
import { PROFILE } from "../support/uploads.ts";
import { copiesAccount, send, type CopiesAccount } from "../support/lifetime-copies.ts";
import { keysWithLifetime } from "../../src/stats/fold.ts";
import { snapshotOf } from "../../src/stats/lifetime-snapshot.query.ts";

const opened: CopiesAccount[] = [];
afterEach(async () => {
  for (const a of opened.splice(0)) await a.t.close();
});
const account = async () => {
  const a = await copiesAccount();
  opened.push(a);
  return a;
};

describe("a large profile's lifetime figures kept in the database", () => {
  test("answer a memo that never read the profile, for the same state only", async () => {
    const { t, p, fold, memo, labels } = await account();
    const first = memo();
    const read = [...(await first.figures(fold, p.uuid, PROFILE, "s1"))];
    await first.settled();
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "s1", labels)).not.toBeNull();
    // The player uploads again; a new process asked for the old state (as if nothing had been
    // uploaded since) answers the copy: the figures of the read that made it, not the rows now.
    await send(t, p, 500);
    const restarted = memo();
    expect([...(await restarted.figures(fold, p.uuid, PROFILE, "s1"))]).toEqual(read);
    // For the account's new state the copy is not used: every key is read, and that set is kept.
    const now = [...(await restarted.figures(fold, p.uuid, PROFILE, "s2"))];
    expect(now).toEqual(await keysWithLifetime(fold, p.uuid, PROFILE));
    expect(now).not.toEqual(read);
    await restarted.settled();
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "s1", labels)).toBeNull();
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "s2", labels)).not.toBeNull();
    // Labels made with another copy of the item list are not used either.
    const items = { itemName: () => undefined, version: "refreshed" };
    expect([...(await memo().figures({ ...fold, items }, p.uuid, PROFILE, "s2"))]).toEqual(now);
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "s2", `${t.catalogue.version}|refreshed`)).toBeNull();
  });

  test("are only for profiles of snapshotMinKeys keys, and age like a set in memory", async () => {
    const { t, p, fold, memo, labels } = await account();
    const small = memo(60_000, 6);
    await small.figures(fold, p.uuid, PROFILE, "s1");
    await small.settled();
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "s1", labels)).toBeNull();
    const kept = memo(60_000);
    await kept.figures(fold, p.uuid, PROFILE, "s1");
    await kept.settled();
    const copy = await snapshotOf(t.db, p.uuid, PROFILE, "s1", labels);
    // Past its time to live a memo answering from the copy reads every key again after the page, and
    // keeps that read (its time now).
    t.clock.advance(60_000);
    const later = memo(60_000);
    await later.figures(fold, p.uuid, PROFILE, "s1");
    await later.settled();
    expect((await snapshotOf(t.db, p.uuid, PROFILE, "s1", labels))!.readAt).toBe(copy!.readAt + 60_000);
  });
});
