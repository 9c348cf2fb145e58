// Erased figures never come back as a copy (issue 40): the lifetime figures a large profile keeps in
// the database (lifetime_snapshots) go with an erasure, an import and retention, in their
// transaction, and a copy read before an erasure (another instance's, late) is never written after it.
import { afterEach, describe, expect, test } from "bun:test";
import { PROFILE } from "../support/uploads.ts";
import { copiesAccount, type CopiesAccount } from "../support/lifetime-copies.ts";
import { keepSnapshot, snapshotOf } from "../../src/stats/lifetime-snapshot.query.ts";
import { eraseData } from "../../src/stats/erase.ts";
import { retentionPass } from "../../src/stats/seal.ts";

const opened: CopiesAccount[] = [];
afterEach(async () => {
  for (const a of opened.splice(0)) await a.t.close();
});

describe("lifetime figures kept in the database", () => {
  test("go with an erasure, an import and retention, and are never written for an erased account", async () => {
    const a = await copiesAccount();
    opened.push(a);
    const { t, p, fold, memo, labels } = a;
    const kept = async (state: string) => {
      const m = memo();
      await m.figures(fold, p.uuid, PROFILE, state);
      await m.settled();
      return snapshotOf(t.db, p.uuid, PROFILE, state, labels);
    };
    expect(await kept("a")).not.toBeNull();
    // An import of the account's own export (which changes no figure) still forgets it.
    const file = await (await t.request("/v1/stats/export", { headers: p.auth })).text();
    const imported = await t.request("/v1/stats/import", {
      method: "POST",
      body: Bun.gzipSync(new TextEncoder().encode(file)),
      headers: { ...p.auth, "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(imported.status).toBe(200);
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "a", labels)).toBeNull();
    // Retention moves baselines' dates without an upload.
    expect(await kept("b")).not.toBeNull();
    t.clock.set("2028-07-01T12:00:00Z");
    await retentionPass({ db: t.db, clock: t.clock });
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "b", labels)).toBeNull();
    // Erasure: gone, and a copy read before it (another instance's, late) is not written after it.
    expect(await kept("c")).not.toBeNull();
    await eraseData(t.db, p.uuid);
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "c", labels)).toBeNull();
    await keepSnapshot(t.db, { uuid: p.uuid, profileId: PROFILE, state: "c", labels, readAt: 1, figures: "[]" });
    expect(await snapshotOf(t.db, p.uuid, PROFILE, "c", labels)).toBeNull();
  });
});
