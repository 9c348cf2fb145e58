// Reads an export file as it streams: gunzip, UTF-8, and the one JSON object of the file taken apart
// at its top level. Each field of the object is answered as it ends; a field named as a section (an
// array of rows) is answered row by row. Only one value (a head field or one row) is held at a time,
// under a size cap and a nesting depth, so a file of any length is read in flat memory and linear
// time, and a hostile one stops at its first fault.
import { ApiError } from "../http/errors.ts";

export type FileEvent =
  | { kind: "field"; name: string; value: unknown }
  | { kind: "row"; section: string; index: number; value: unknown }
  | { kind: "end" };

export type ParseLimits = {
  /** Largest decoded file, in bytes. */
  maxBytes: number;
  /** Largest single value (a head field or one row), in characters. */
  maxValueChars: number;
  /** Deepest nesting inside one value. */
  maxDepth: number;
};

const GZIP_MAGIC = [0x1f, 0x8b];

/** The decoded bytes of a file (gzip, or plain JSON when `plainAllowed`), each chunk as it comes, under the cap. */
async function* decoded(
  source: ReadableStream<Uint8Array>,
  maxBytes: number,
  plainAllowed: boolean,
): AsyncGenerator<Uint8Array> {
  const reader = source.getReader();
  let first: Awaited<ReturnType<typeof reader.read>>;
  try {
    first = await reader.read();
  } catch {
    reader.releaseLock();
    throw new ApiError("invalid_body", "the file could not be read");
  }
  let head = first.value ?? new Uint8Array();
  // Two bytes tell gzip from plain text; a first chunk of one byte waits for the next.
  while (head.byteLength < 2 && !first.done) {
    first = await reader.read();
    if (first.value) head = Buffer.concat([head, first.value]);
  }
  const gzip = head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  if (!gzip && !plainAllowed) {
    reader.cancel().catch(() => {});
    throw new ApiError("gzip_required", "send the export file gzip-compressed (Content-Encoding: gzip)");
  }
  // The stream again, its first chunk put back.
  const whole = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head.byteLength) controller.enqueue(head);
      if (first.done) controller.close();
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (why) => reader.cancel(why),
  });
  const bytes = gzip
    ? whole.pipeThrough(new DecompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>)
    : whole;
  const it = bytes.getReader();
  let size = 0;
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof it.read>>;
      try {
        next = await it.read();
      } catch {
        throw new ApiError("invalid_body", "the file is not valid gzip (cut short, or damaged)");
      }
      if (next.done) return;
      size += next.value.byteLength;
      if (size > maxBytes)
        throw new ApiError("body_too_large", `the file is larger than ${maxBytes} bytes decoded (IMPORT_MAX_BYTES)`);
      yield next.value;
    }
  } finally {
    it.cancel().catch(() => {});
  }
}

const WS = new Set([0x20, 0x0a, 0x0d, 0x09].map((c) => String.fromCharCode(c)));
const bad = (why: string) => new ApiError("invalid_body", `the file is not an export: ${why}`);

type State = "start" | "key" | "keyOrEnd" | "colon" | "value" | "afterValue" | "rowOrEnd" | "row" | "afterRow" | "done";

/**
 * The file's events. `isSection(name)`: whether a top-level field is an array read row by row.
 * Ends with { kind: "end" } only when the object is whole (a file cut short is refused).
 */
export async function* fileEvents(
  source: ReadableStream<Uint8Array>,
  limits: ParseLimits,
  isSection: (name: string) => boolean,
  plainAllowed = false,
): AsyncGenerator<FileEvent> {
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  let state: State = "start";
  let field = "";
  let index = 0;
  // The value being captured: its pieces, length, nesting, and string state.
  let pieces: string[] = [];
  let length = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let capturing = false;
  /** A scalar (number, true, false, null) ends at the first character that is not its own. */
  let scalar = false;
  let ready: FileEvent[] = [];

  const finish = (): unknown => {
    const text = pieces.join("");
    pieces = [];
    length = 0;
    capturing = false;
    try {
      return JSON.parse(text);
    } catch (e) {
      throw bad(`a value is not valid JSON (${(e as Error).message})`);
    }
  };
  const done = () => {
    const value = finish();
    if (state === "key") {
      if (typeof value !== "string") throw bad("a field name is not a string");
      field = value;
      state = "colon";
    } else if (state === "value") {
      ready.push({ kind: "field", name: field, value });
      state = "afterValue";
    } else {
      ready.push({ kind: "row", section: field, index: index++, value });
      state = "afterRow";
    }
  };
  const begin = (c: string) => {
    capturing = true;
    depth = 0;
    inString = false;
    escaped = false;
    scalar = !(c === "{" || c === "[" || c === '"');
  };

  const feed = (text: string) => {
    let i = 0;
    let from = 0;
    const n = text.length;
    const keep = (to: number) => {
      if (to > from) {
        length += to - from;
        if (length > limits.maxValueChars)
          throw new ApiError(
            "body_too_large",
            `a row or field of the file is longer than ${limits.maxValueChars} characters`,
          );
        pieces.push(text.slice(from, to));
      }
    };
    while (i < n) {
      if (capturing) {
        from = i;
        // The value's characters: scanned without leaving this loop until it ends or the chunk does.
        for (; i < n; i++) {
          const c = text.charCodeAt(i);
          if (scalar) {
            // , ] } or whitespace end a scalar; it is checked by JSON.parse.
            if (c === 0x2c || c === 0x5d || c === 0x7d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) break;
            continue;
          }
          if (inString) {
            if (escaped) escaped = false;
            else if (c === 0x5c) escaped = true;
            else if (c === 0x22) {
              inString = false;
              if (depth === 0) {
                i++;
                break;
              }
            }
          } else if (c === 0x22) inString = true;
          else if (c === 0x7b || c === 0x5b) {
            if (++depth > limits.maxDepth)
              throw new ApiError(
                "body_too_deep",
                `the file nests arrays and objects deeper than ${limits.maxDepth} levels in a row`,
              );
          } else if (c === 0x7d || c === 0x5d) {
            if (--depth === 0) {
              i++;
              break;
            }
          }
        }
        keep(i);
        const ended = scalar ? i < n : depth === 0 && !inString && i > from;
        if (ended) done();
        continue;
      }
      const c = text[i]!;
      if (WS.has(c)) {
        i++;
        continue;
      }
      switch (state) {
        case "start":
          if (c !== "{") throw bad("it does not start with {");
          state = "keyOrEnd";
          i++;
          break;
        case "keyOrEnd":
        case "key":
          if (c === "}" && state === "keyOrEnd") {
            state = "done";
            i++;
            break;
          }
          if (c !== '"') throw bad("a field name was expected");
          state = "key";
          begin(c);
          break;
        case "colon":
          if (c !== ":") throw bad(": was expected after a field name");
          state = "value";
          i++;
          break;
        case "value":
          if (isSection(field)) {
            if (c !== "[") throw bad(`${field} is not an array`);
            state = "rowOrEnd";
            index = 0;
            i++;
          } else begin(c);
          break;
        case "rowOrEnd":
        case "row":
          if (c === "]" && state === "rowOrEnd") {
            state = "afterValue";
            i++;
            break;
          }
          state = "row";
          begin(c);
          break;
        case "afterRow":
          if (c === ",") state = "row";
          else if (c === "]") state = "afterValue";
          else throw bad(`, or ] was expected after a row of ${field}`);
          i++;
          break;
        case "afterValue":
          if (c === ",") state = "key";
          else if (c === "}") state = "done";
          else throw bad(", or } was expected after a field");
          i++;
          break;
        case "done":
          throw bad("there is more after the end of the object");
      }
    }
  };

  for await (const chunk of decoded(source, limits.maxBytes, plainAllowed)) {
    let text: string;
    try {
      text = utf8.decode(chunk, { stream: true });
    } catch {
      throw bad("it is not valid UTF-8");
    }
    feed(text);
    if (ready.length) {
      const out = ready;
      ready = [];
      yield* out;
    }
  }
  // A scalar at the very end has no character after it.
  if (capturing && scalar) done();
  if (ready.length) yield* ready;
  if ((state as State) !== "done") throw bad("it ends before its object does (cut short?)");
  yield { kind: "end" };
}
