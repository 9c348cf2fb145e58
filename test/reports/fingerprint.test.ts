// Grouping: the trace corpus's problems each get one fingerprint, and different problems differ.
import { describe, expect, test } from "bun:test";
import { fingerprintOf, normaliseFrame, parameterise, parseTrace } from "../../src/reports/fingerprint.ts";
import { traceCorpus } from "./corpus.ts";

const fp = (c: (typeof traceCorpus)[number], app: string[] = []) =>
  fingerprintOf({ tool: "general", ...c }, app).fingerprint;

describe("the trace corpus", () => {
  test("traces of one problem share a fingerprint; different problems never do", () => {
    const byProblem = new Map<string, Set<string>>();
    for (const c of traceCorpus) byProblem.set(c.problem, (byProblem.get(c.problem) ?? new Set()).add(fp(c)));
    for (const [problem, prints] of byProblem) expect({ problem, prints: prints.size }).toEqual({ problem, prints: 1 });
    const all = [...byProblem.values()].map((s) => [...s][0]);
    expect(new Set(all).size).toBe(byProblem.size);
    expect(byProblem.size).toBe(8);
  });

  test("REPORT_APP_PACKAGES narrows the frames to the mod's own packages and keeps the grouping", () => {
    const app = ["dev.tally.mod."];
    const a = traceCorpus.filter((c) => c.problem.startsWith("A:")).map((c) => fp(c, app));
    expect(new Set(a).size).toBe(1);
    const b = traceCorpus.find((c) => c.problem.startsWith("B:"))!;
    expect(fp(b, app)).not.toBe(a[0]);
  });

  test("a Forge crash report groups by its root cause, not the wrapping ReportedException", () => {
    const forge = fingerprintOf({ tool: "general", ...traceCorpus.find((c) => c.id.startsWith("A3"))! });
    expect(forge.exceptionType).toBe("java.lang.NullPointerException");
    expect(forge.signature).toContain("dev.tally.mod.feature.DungeonSplits.onChat");
  });

  test("the same title in another tool is another problem; a trace groups across tools", () => {
    const g = traceCorpus.find((c) => c.id.startsWith("G1"))!;
    expect(fingerprintOf({ ...g, tool: "general" }).fingerprint).not.toBe(
      fingerprintOf({ ...g, tool: "uploads" }).fingerprint,
    );
    const a = traceCorpus[0]!;
    expect(fingerprintOf({ ...a, tool: "general" }).fingerprint).toBe(
      fingerprintOf({ ...a, tool: "uploads" }).fingerprint,
    );
  });
});

describe("normalisation", () => {
  test.each([
    ["dev.m.Foo.lambda$onTick$3", "dev.m.Foo.lambda$onTick"],
    ["dev.m.Foo.lambda$12", "dev.m.Foo.lambda"],
    ["dev.m.Foo.access$100", "dev.m.Foo.access$"],
    ["dev.m.Foo$2.run", "dev.m.Foo$.run"],
    ["dev.m.Foo$$Lambda$2184.run", "dev.m.Foo$$Lambda.run"],
    ["net.minecraft.client.MinecraftClient.handler$zza000$tally$onTick", "<mixin>.handler$onTick"],
    ["net.minecraft.client.Minecraft.redirect$bcd012$onTick", "<mixin>.redirect$onTick"],
  ])("%s -> %s", (frame, normal) => expect(normaliseFrame(frame)).toBe(normal));

  test("parameterise replaces numbers, hex, uuids, pseudonyms and paths", () => {
    expect(
      parameterise(
        "Slot 12 of 0x7f3a in /home/<user>/a/b for player-0123456789 and 069a79f4-44e9-4726-a5be-fca90e38aaf5 hash deadbeef12",
      ),
    ).toBe("Slot <n> of <hex> in <path> for <player> and <uuid> hash <hex>");
  });

  test("parseTrace reads the chain and leaves Suppressed blocks out", () => {
    const chain = parseTrace(
      "java.lang.RuntimeException: outer\n\tat a.B.c(B.java:1)\n\tSuppressed: java.io.IOException: x\n\t\tat z.Y.x(Y.java:2)\nCaused by: java.lang.Error: inner\n\tat d.E.f(E.java:3)\n\t... 4 more",
    );
    expect(chain).toEqual([
      { type: "java.lang.RuntimeException", message: "outer", frames: ["a.B.c"] },
      { type: "java.lang.Error", message: "inner", frames: ["d.E.f"] },
    ]);
  });
});
