// Ingest, the rules: each asserts the answer and what is stored afterwards.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { ACCOUNT, envelope, uploader, PROFILE } from "../support/uploads.ts";
import { isEmpty, storedState } from "../support/stored.ts";
import type { CounterBlock } from "../../src/wire/envelope.ts";

let t: TestApp;
// 2026-06-01 12:00 UTC: the service's day is 2026-06-01.
beforeAll(
  async () =>
    (t = await testApp({
      settings: { devSignin: true, ingestMaxRows: 100, authRateLimit: 100 },
      now: "2026-06-01T12:00:00Z",
    })),
);
afterAll(() => t.close());

type Answer = {
  sealedBeforeDay: string;
  duplicate: boolean;
  warnings: { code: string; key?: string; message: string }[];
  dropped: { categories: string[]; rows: number };
  refused: { day: string; code: string; rows: number }[];
  applied: { rows: number; sessions: number; events: number; sections: number };
};
type Refusal = { status: number; code: string; path?: string; message: string };
const block = (rows: CounterBlock["rows"], opts: Partial<CounterBlock> = {}): CounterBlock => ({
  profileId: PROFILE,
  scope: "day",
  day: "2026-06-01",
  rows,
  ...opts,
});
const answerOf = async (res: Response) => {
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
};
const refusalOf = async (res: Response): Promise<Refusal> => ({
  status: res.status,
  ...((await res.json()) as { error: Omit<Refusal, "status"> }).error,
});

describe("an upload that carries nothing", () => {
  test.each([
    ["no counters, sessions, timeline or mirror", {}],
    ["counter blocks without rows", { counters: [block([]), block([], { profileId: ACCOUNT })] }],
    ["empty lists", { counters: [], sessions: [], timeline: [] }],
  ])("is refused empty_upload: %s", async (_what, parts) => {
    const u = await uploader(t);
    expect(await refusalOf(await u.send(envelope(t, parts)))).toMatchObject({ status: 422, code: "empty_upload" });
  });
});

describe("categories must name exactly the payload's categories", () => {
  const rows = [
    { k: "mining.blocks.stone", v: 1 },
    { k: "kills.island.hub", v: 2 },
  ];
  test.each([
    ["one missing", ["gathering"], "missing combat"],
    ["one extra", ["combat", "gathering", "service"], "not in the payload service"],
    ["one unknown", ["combat", "gathering", "chat"], "not in the payload chat"],
    ["one named twice", ["combat", "gathering", "combat"], "named twice"],
  ])("%s is refused categories_mismatch", async (_what, categories, says) => {
    const u = await uploader(t);
    const refusal = await refusalOf(await u.send(envelope(t, { counters: [block(rows)], categories })));
    expect(refusal).toMatchObject({ status: 422, code: "categories_mismatch", path: "/categories" });
    expect(refusal.message).toContain(says);
    expect(isEmpty(await storedState(t.db, u.uuid))).toBe(true);
  });

  test("keys of sessions, timeline and mirror count too", async () => {
    const u = await uploader(t);
    const env = envelope(t, {
      counters: [block([{ k: "mining.blocks.stone", v: 1 }])],
      timeline: [
        { id: "e1", kind: "rare_drop", day: "2026-06-01", at: t.clock.now(), key: "loot.item.DRAGON_CLAW", value: 1 },
      ],
      categories: ["gathering"],
    });
    expect((await refusalOf(await u.send(env))).message).toContain("missing combat");
  });
});

describe("a category the account turned off", () => {
  test("its rows, sessions and events are dropped and the answer says which and how many; the rest applies", async () => {
    const u = await uploader(t, { consent: ["gathering"] });
    const env = envelope(t, {
      counters: [
        block([
          { k: "mining.blocks.stone", v: 5 },
          { k: "kills.island.hub", v: 2 },
          { k: "loot.item.BONE", v: 9 },
        ]),
        block([{ k: "tally.playtime.total", v: 60_000 }], { profileId: ACCOUNT }),
      ],
      sessions: [
        {
          id: "fight",
          activity: "slayer",
          day: "2026-06-01",
          startedAt: 1,
          endedAt: 2,
          gains: [{ k: "loot.item.BONE", v: 9 }],
          costs: [],
        },
      ],
      timeline: [{ id: "lvl", kind: "level_up", day: "2026-06-01", at: 3, key: "mining.level", value: 20 }],
    });
    const answer = await answerOf(await u.send(env));
    expect(answer.dropped).toEqual({ categories: ["combat", "service"], rows: 4 });
    expect(answer.applied).toEqual({ rows: 1, sessions: 0, events: 1, sections: 0 });
    const stored = await storedState(t.db, u.uuid);
    expect(stored.days.map((d) => d.key)).toEqual(["mining.blocks.stone"]);
    expect(stored.sessions).toEqual([]);
    expect(stored.events.map((e) => e.id)).toEqual(["lvl"]);
  });

  test("with every category off nothing is stored, and the upload still answers", async () => {
    const u = await uploader(t, { consent: [] });
    const answer = await answerOf(
      await u.send(envelope(t, { counters: [block([{ k: "mining.blocks.stone", v: 5 }])] })),
    );
    expect(answer.dropped).toEqual({ categories: ["gathering"], rows: 1 });
    expect(isEmpty(await storedState(t.db, u.uuid))).toBe(true);
  });
});

describe("one profile plus the account scope", () => {
  test("a block for another profileId is refused profile_mismatch", async () => {
    const u = await uploader(t);
    const env = envelope(t, {
      counters: [
        block([{ k: "mining.blocks.stone", v: 1 }]),
        block([{ k: "mining.blocks.stone", v: 1 }], { profileId: "9".repeat(32) }),
      ],
    });
    expect(await refusalOf(await u.send(env))).toMatchObject({
      status: 422,
      code: "profile_mismatch",
      path: "/counters/1/profileId",
    });
    expect(isEmpty(await storedState(t.db, u.uuid))).toBe(true);
  });

  test("the all-zero id cannot be the upload's profile", async () => {
    const u = await uploader(t);
    const env = envelope(t, {
      profile: { id: ACCOUNT, cuteName: "Apple" },
      counters: [block([{ k: "tally.playtime.total", v: 1 }], { profileId: ACCOUNT })],
    });
    expect(await refusalOf(await u.send(env))).toMatchObject({
      status: 422,
      code: "profile_mismatch",
      path: "/profile/id",
    });
  });

  test("cuteName must be one of the catalogue's names, and is never used to find a profile", async () => {
    const u = await uploader(t);
    const bad = envelope(t, {
      profile: { id: PROFILE, cuteName: "Durian" },
      counters: [block([{ k: "mining.blocks.stone", v: 1 }])],
    });
    expect(await refusalOf(await u.send(bad))).toMatchObject({
      status: 422,
      code: "unknown_cute_name",
      path: "/profile/cuteName",
    });
    await u.send(
      envelope(t, {
        profile: { id: PROFILE, cuteName: "Apple" },
        counters: [block([{ k: "mining.blocks.stone", v: 1 }])],
      }),
    );
    const other = "1".repeat(32);
    await u.send(
      envelope(t, {
        profile: { id: other, cuteName: "Apple" },
        counters: [block([{ k: "mining.blocks.stone", v: 2 }], { profileId: other })],
      }),
    );
    expect((await storedState(t.db, u.uuid)).days.map((d) => [d.profileId, d.value])).toEqual([
      [other, 2],
      [PROFILE, 1],
    ]);
  });
});

describe("days", () => {
  test("exactly one day ahead of the service's UTC day is accepted (UTC+13)", async () => {
    const u = await uploader(t, { zone: "Pacific/Tongatapu" });
    expect(
      (await u.send(envelope(t, { counters: [block([{ k: "mining.blocks.stone", v: 1 }], { day: "2026-06-02" })] })))
        .status,
    ).toBe(200);
  });

  test("two days ahead fails the whole upload, valid rows included", async () => {
    const u = await uploader(t);
    const env = envelope(t, {
      counters: [
        block([{ k: "mining.blocks.stone", v: 1 }]),
        block([{ k: "mining.blocks.stone", v: 1 }], { day: "2026-06-03" }),
      ],
    });
    expect(await refusalOf(await u.send(env))).toMatchObject({
      status: 422,
      code: "day_too_far_ahead",
      path: "/counters/1/day",
    });
    expect(isEmpty(await storedState(t.db, u.uuid))).toBe(true);
    const event = envelope(t, { timeline: [{ id: "e", kind: "first", day: "2026-06-03", at: 1 }] });
    expect(await refusalOf(await u.send(event))).toMatchObject({ code: "day_too_far_ahead", path: "/timeline/0/day" });
  });

  test("a day row older than the seal horizon is refused day_sealed and listed; the rest applies", async () => {
    const u = await uploader(t);
    const env = envelope(t, {
      counters: [
        block([{ k: "mining.blocks.stone", v: 1 }], { day: "2026-02-01" }),
        block(
          [
            { k: "mining.blocks.stone", v: 2 },
            { k: "mining.blocks.dirt", v: 2 },
          ],
          { day: "2026-01-31" },
        ),
        block([{ k: "mining.blocks.stone", v: 3 }], { day: "2025-12-24" }),
      ],
    });
    const answer = await answerOf(await u.send(env));
    expect(answer.sealedBeforeDay).toBe("2026-02-01");
    expect(answer.refused).toEqual([
      { day: "2025-12-24", code: "day_sealed", rows: 1 },
      { day: "2026-01-31", code: "day_sealed", rows: 2 },
    ]);
    expect(answer.applied.rows).toBe(1);
    expect((await storedState(t.db, u.uuid)).days.map((d) => d.day)).toEqual(["2026-02-01"]);
  });

  test("the horizon is 120 days back in the account's zone, not UTC", async () => {
    // At 12:00 UTC it is already 2026-06-02 at UTC+14.
    const u = await uploader(t, { zone: "Pacific/Kiritimati" });
    const answer = await answerOf(
      await u.send(
        envelope(t, {
          zone: { id: "Pacific/Kiritimati" },
          counters: [
            block(
              [
                { k: "mining.blocks.stone", v: 1 },
                { k: "mining.blocks.dirt", v: 1 },
              ],
              { day: "2026-02-01" },
            ),
          ],
        }),
      ),
    );
    expect(answer.sealedBeforeDay).toBe("2026-02-02");
    expect(answer.refused).toEqual([{ day: "2026-02-01", code: "day_sealed", rows: 2 }]);
  });

  test("a backfill dated before the horizon is still applied (it is a baseline, not a day row)", async () => {
    const u = await uploader(t);
    const answer = await answerOf(
      await u.send(
        envelope(t, {
          counters: [block([{ k: "mining.blocks.stone", v: 9000 }], { scope: "backfill", day: "2025-01-01" })],
        }),
      ),
    );
    expect(answer.refused).toEqual([]);
    const stored = await storedState(t.db, u.uuid);
    expect(stored.days).toEqual([]);
    expect(stored.backfills.map((b) => [b.key, b.day, b.value])).toEqual([["mining.blocks.stone", "2025-01-01", 9000]]);
  });
});

describe("warnings, never refusals", () => {
  test("a client clock that is merely wrong warns clock_skew and applies", async () => {
    const u = await uploader(t);
    const answer = await answerOf(
      await u.send(
        envelope(t, { sentAt: t.clock.now() - 3 * 3_600_000, counters: [block([{ k: "mining.blocks.stone", v: 1 }])] }),
      ),
    );
    expect(answer.warnings.map((w) => w.code)).toEqual(["clock_skew"]);
    expect(answer.applied.rows).toBe(1);
  });

  test("a catalogue version mismatch is logged and warned, never refused", async () => {
    const u = await uploader(t);
    const env = envelope(t, { counters: [block([{ k: "mining.blocks.stone", v: 1 }])] });
    env.client.catalogue = t.catalogue.version + 5;
    const answer = await answerOf(await u.send(env));
    expect(answer.warnings.map((w) => w.code)).toEqual(["catalogue_mismatch"]);
    expect(
      t.log.lines.some((l) => l.msg === "catalogue version mismatch" && l.client === t.catalogue.version + 5),
    ).toBe(true);
  });

  test("days labelled in another zone than the account's, or stale settings, warn", async () => {
    const u = await uploader(t);
    const answer = await answerOf(
      await u.send(
        envelope(t, {
          zone: { id: "Asia/Tokyo" },
          settingsVersion: 1,
          counters: [block([{ k: "mining.blocks.stone", v: 1 }])],
        }),
      ),
    );
    expect(answer.warnings.map((w) => w.code)).toEqual(["zone_mismatch", "settings_changed"]);
  });
});

describe("keys and namespaces", () => {
  test("a namespace outside the catalogue's closed list is refused unknown_namespace", async () => {
    const u = await uploader(t);
    const refusal = await refusalOf(
      await u.send(
        envelope(t, {
          categories: [],
          counters: [
            block([
              { k: "mining.blocks.stone", v: 1 },
              { k: "chat.lines.sent", v: 1 },
            ]),
          ],
        }),
      ),
    );
    expect(refusal).toMatchObject({ status: 422, code: "unknown_namespace", path: "/counters/0/rows/1/k" });
  });

  test("a key absent from the catalogue is accepted and stored", async () => {
    const u = await uploader(t);
    const answer = await answerOf(
      await u.send(envelope(t, { counters: [block([{ k: "fishing.trophy.GOLDEN_FISH", v: 3 }])] })),
    );
    expect(answer.applied.rows).toBe(1);
    expect((await storedState(t.db, u.uuid)).days[0]).toMatchObject({ key: "fishing.trophy.GOLDEN_FISH", value: 3 });
  });

  test("a key twice in one block, or a block twice, is refused duplicate_row", async () => {
    const u = await uploader(t);
    const twice = envelope(t, {
      counters: [
        block([
          { k: "mining.blocks.stone", v: 1 },
          { k: "mining.blocks.stone", v: 2 },
        ]),
      ],
    });
    expect(await refusalOf(await u.send(twice))).toMatchObject({
      status: 422,
      code: "duplicate_row",
      path: "/counters/0/rows/1/k",
    });
    const blocks = envelope(t, {
      counters: [block([{ k: "mining.blocks.stone", v: 1 }]), block([{ k: "mining.blocks.dirt", v: 2 }])],
    });
    expect(await refusalOf(await u.send(blocks))).toMatchObject({ code: "duplicate_row", path: "/counters/1" });
  });

  test("more rows than INGEST_MAX_ROWS is refused too_many_rows", async () => {
    const u = await uploader(t);
    const rows = Array.from({ length: 101 }, (_, i) => ({ k: `mining.blocks.B${i}`, v: i }));
    expect(await refusalOf(await u.send(envelope(t, { counters: [block(rows)] }), { gzip: true }))).toMatchObject({
      status: 422,
      code: "too_many_rows",
    });
  });
});

describe("the privacy denylist", () => {
  test.each([
    ["a rank tag in the mod version", "/client/modVersion", (e: any) => (e.client.modVersion = "1.0 [MVP+] Steve")],
    [
      "a uuid in a key segment",
      "/counters/0/rows/0/k",
      (e: any) => (e.counters[0].rows[0].k = "loot.from.069a79f444e94726a5befca90e38aaf5"),
    ],
    ["a whisper in the minecraft version", "/client/minecraft", (e: any) => (e.client.minecraft = "To Steve: hi")],
  ])("%s is refused denylisted_string at %s, without echoing it", async (_what, path, mutate) => {
    const u = await uploader(t);
    const env: any = envelope(t, { counters: [block([{ k: "mining.blocks.stone", v: 1 }])] });
    mutate(env);
    const res = await u.send(env);
    const text = await res.text();
    expect(res.status).toBe(422);
    expect(JSON.parse(text).error).toMatchObject({ code: "denylisted_string", path });
    expect(text).not.toContain("Steve");
    expect(text).not.toContain("069a79f4");
    expect(isEmpty(await storedState(t.db, u.uuid))).toBe(true);
  });

  test("the structure-free layer refuses free text naming a handle no rule places, never a one-word version", async () => {
    const u = await uploader(t);
    const send = (client: Record<string, string>) => {
      const env: any = envelope(t, { counters: [block([{ k: "mining.blocks.stone", v: 1 }])] });
      Object.assign(env.client, client);
      return u.send(env);
    };
    for (const [client, path] of [
      [{ modVersion: "then xX_Steve_Xx threw the bow" }, "/client/modVersion"],
      [{ minecraft: "Steveroni joined" }, "/client/minecraft"], // a message's unknown subject
    ] as const) {
      const res = await send(client);
      expect(res.status).toBe(422);
      expect((await res.json()).error).toMatchObject({ code: "denylisted_string", path });
    }
    expect(isEmpty(await storedState(t.db, u.uuid))).toBe(true);
    expect((await send({ modVersion: "2.0.0-beta3_dev+build.5a7c2e1" })).status).toBe(200);
  });

  test("identifiers by contract are not read as names: a 32-hex session id is fine", async () => {
    const u = await uploader(t);
    const id = "0123456789abcdef0123456789abcdef";
    const env = envelope(t, {
      sessions: [
        {
          id,
          activity: "mining",
          day: "2026-06-01",
          startedAt: 1,
          endedAt: 2,
          gains: [{ k: "mining.blocks.stone", v: 1 }],
          costs: [],
        },
      ],
    });
    expect((await answerOf(await u.send(env))).applied.sessions).toBe(1);
  });
});

describe("the status screen", () => {
  test("shows when the last upload was accepted", async () => {
    const u = await uploader(t);
    await u.send(envelope(t, { counters: [block([{ k: "mining.blocks.stone", v: 1 }])] }));
    const status = (await (await t.request("/v1/stats/me/status", { headers: u.auth })).json()) as {
      lastUploadAt: number;
    };
    expect(status.lastUploadAt).toBe(t.clock.now());
  });
});
