// Reads a byte stream whole, up to a cap: past the cap it stops reading at once (the rest is never
// held) and throws the caller's error. Request bodies and upstream answers both go through it.
export async function readStreamCapped(
  stream: ReadableStream<Uint8Array>,
  cap: number,
  tooLarge: () => Error,
  /** Sees each chunk as it arrives; what it throws stops the read (for example a depth check). */
  inspect?: (chunk: Uint8Array) => void,
): Promise<Uint8Array<ArrayBuffer>> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
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
