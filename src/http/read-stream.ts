// Reads a byte stream whole, up to a cap: past the cap it stops reading at once (the rest is never
// held) and throws the caller's error. Request bodies and upstream answers both go through it.
// A request body also has a pace: a deadline for the whole read and, after a grace, a minimum
// average rate; a body that falls behind is abandoned (the stream cancelled, nothing kept) with
// the caller's error.

/** How fast a stream must arrive; every duration counts from the start of the read. */
export type Pace = {
  /** The whole stream must have arrived by then. */
  deadlineMs: number;
  /** After `graceMs`, at least this many bytes a second on average since the start; 0: no rate. */
  minBytesPerSecond: number;
  graceMs: number;
  tooSlow: (why: "deadline" | "rate") => Error;
};

export async function readStreamCapped(
  stream: ReadableStream<Uint8Array>,
  cap: number,
  tooLarge: () => Error,
  /** Sees each chunk as it arrives; what it throws stops the read (for example a depth check). */
  inspect?: (chunk: Uint8Array) => void,
  pace?: Pace,
): Promise<Uint8Array<ArrayBuffer>> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const started = performance.now();
  // The next chunk is due when the bytes so far stop covering the rate (grace + size / rate), and
  // at the latest at the deadline: one timer per chunk, cleared when the chunk comes.
  const next = (): ReturnType<typeof reader.read> => {
    if (!pace) return reader.read();
    const byRate =
      pace.minBytesPerSecond > 0 ? pace.graceMs + (size / pace.minBytesPerSecond) * 1000 : Number.POSITIVE_INFINITY;
    const why = byRate < pace.deadlineMs ? "rate" : "deadline";
    const wait = Math.min(byRate, pace.deadlineMs) - (performance.now() - started);
    if (wait <= 0) return Promise.reject(pace.tooSlow(why));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(pace.tooSlow(why)), wait);
    });
    return Promise.race([reader.read(), late]).finally(() => clearTimeout(timer));
  };
  try {
    for (let r = await next(); !r.done; r = await next()) {
      size += r.value.byteLength;
      if (size > cap) throw tooLarge();
      inspect?.(r.value);
      chunks.push(r.value);
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
