// The maintainers' chat as a boundary: report text a stranger writes must not become markup there.
// Finding 7 of issue 22: four backticks closed the code block ("````" -> "`\u200b```" still held a
// fence), so a stack trace could inject bold text and masked links into the forum.
import { describe, expect, test } from "bun:test";
import { codeBlock, escapeText, newThreadMessage } from "../../src/reports/chat-message.ts";
import type { Problem, Sample } from "../../src/reports/reports.query.ts";

/** Whether `text` holds a run of three or more backticks (a code fence) anywhere. */
const hasFence = (text: string) => /`{3,}/.test(text);

describe("codeBlock", () => {
  test("no run of backticks in the body survives, whatever its length, so nothing can close the block", () => {
    for (let n = 1; n <= 12; n++) {
      const hostile = `x${"`".repeat(n)}\n**bold** [link](https://evil.example)\n${"`".repeat(n)}y`;
      const block = codeBlock(hostile, 4000, "java");
      const body = block.slice("```java\n".length, -"\n```".length);
      expect({ n, fence: hasFence(body), pair: /``/.test(body) }).toEqual({ n, fence: false, pair: false });
      expect(block.startsWith("```java\n") && block.endsWith("\n```")).toBe(true);
    }
  });

  test("cutting a long body never joins two backticks again, and the block stays within its limit", () => {
    const block = codeBlock("`".repeat(10_000), 3000, "java");
    expect(block.length).toBeLessThanOrEqual(3000);
    expect(/``/.test(block.slice(8, -4))).toBe(false);
  });
});

describe("a posted report", () => {
  const problem = {
    id: 7,
    tool: "general",
    count: 1,
    minVersion: "1.0.0",
    maxVersion: "1.0.0",
    lastMinecraft: "1.21.4",
    firstSeenAt: 0,
    lastSeenAt: 0,
    exceptionType: "java.lang.Error",
    signature: "s",
    kind: "frames",
    title: "t",
    state: "open",
    regressedIn: null,
    resolvedIn: null,
  } as unknown as Problem;
  const sample = (over: Partial<Sample>) =>
    ({
      id: 1,
      problemId: 7,
      receivedAt: 0,
      modVersion: "1.0.0",
      minecraft: "1.21.4",
      loader: null,
      title: "t",
      message: null,
      steps: null,
      stackTrace: null,
      ...over,
    }) as Sample;

  test("a trace with four backticks stays inside its code block; mentions stay off", () => {
    const m = newThreadMessage(
      problem,
      sample({ stackTrace: "java.lang.Error: boom\n````\n# Pwned **bold** [click](https://evil.example)\n````" }),
    );
    const d = m.embeds![0]!.description!;
    const fences = d.match(/`{3,}/g) ?? [];
    expect(fences).toEqual(["```", "```"]); // the block's own opening and closing, nothing else
    expect(d.endsWith("\n```")).toBe(true);
    expect(m.allowed_mentions).toEqual({ parse: [] });
  });

  test("control characters and bidi overrides never reach the chat", () => {
    const hostile = "Crash\u202Egnp.exe\u001b]0;owned\u0007 \u009b2J\u0000end";
    expect(escapeText(hostile)).toBe("Crashgnp.exe end");
    const m = newThreadMessage(problem, sample({ title: hostile, message: hostile, stackTrace: hostile }));
    expect(JSON.stringify(m)).not.toMatch(/\\u001b|\\u0000|\u202e|\u009b|\u0007/i);
  });
});
