// What every answer of the ingest fuzzer must be, and the tally of a run, shared by the in-process
// test and the run against the compiled binary.
import { errorStatus } from "../../src/http/errors.ts";

/** Why an answer breaks the rules (undefined when it keeps them): never 5xx; a refusal has the error shape and a stable code of its status. */
export function answerFault(status: number, text: string): string | undefined {
  if (status >= 500) return `status ${status}: ${text.slice(0, 300)}`;
  let body: { error?: { code?: unknown; message?: unknown }; duplicate?: unknown; applied?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    return `status ${status} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  if (status === 200)
    return typeof body.duplicate === "boolean" && body.applied
      ? undefined
      : `200 without an ingest answer: ${text.slice(0, 200)}`;
  const code = body.error?.code;
  if (typeof code !== "string" || !(code in errorStatus))
    return `status ${status} without a stable code: ${text.slice(0, 200)}`;
  if (errorStatus[code as keyof typeof errorStatus] !== status)
    return `code ${code} answered with status ${status}, not ${errorStatus[code as keyof typeof errorStatus]}`;
  if (typeof body.error?.message !== "string") return `code ${code} without a message`;
  return undefined;
}

/** Counts of a run: requests by status and code, mutations by kind and how they were answered. */
export class Tally {
  requests = 0;
  accepted = 0;
  refused = 0;
  byAnswer = new Map<string, number>();
  byKind = new Map<string, { sent: number; accepted: number }>();

  add(kind: string, status: number, text: string) {
    this.requests++;
    if (status === 200) this.accepted++;
    else this.refused++;
    let code = "ok";
    if (status !== 200) {
      try {
        code = (JSON.parse(text) as { error: { code: string } }).error.code;
      } catch {
        code = "?";
      }
    }
    const answer = `${status} ${code}`;
    this.byAnswer.set(answer, (this.byAnswer.get(answer) ?? 0) + 1);
    const k = this.byKind.get(kind) ?? { sent: 0, accepted: 0 };
    k.sent++;
    if (status === 200) k.accepted++;
    this.byKind.set(kind, k);
  }

  table(): string {
    const sorted = <T>(m: Map<string, T>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));
    const lines = [
      `requests ${this.requests}: accepted ${this.accepted}, refused ${this.refused}`,
      "",
      "answer                          count",
    ];
    for (const [answer, n] of sorted(this.byAnswer)) lines.push(`${answer.padEnd(32)}${String(n).padStart(5)}`);
    lines.push("", "mutation                        sent  accepted");
    for (const [kind, k] of sorted(this.byKind))
      lines.push(`${kind.padEnd(32)}${String(k.sent).padStart(4)}  ${String(k.accepted).padStart(8)}`);
    return lines.join("\n");
  }

  json(extra: Record<string, unknown> = {}) {
    return {
      requests: this.requests,
      accepted: this.accepted,
      refused: this.refused,
      byAnswer: Object.fromEntries([...this.byAnswer].sort(([a], [b]) => (a < b ? -1 : 1))),
      byKind: Object.fromEntries([...this.byKind].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, v.sent])),
      ...extra,
    };
  }
}
