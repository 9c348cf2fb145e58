// Counter key grammar (contract 2.2 and 8):
//   key       := namespace ( "." segment ){1,5}      at most 128 bytes
//   namespace := [a-z][a-z0-9_]{1,15}                 and a member of the catalogue's closed list
//   segment   := [A-Za-z0-9_][A-Za-z0-9_;:+#-]{0,63}
export const NAMESPACE = /^[a-z][a-z0-9_]{1,15}$/;
export const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_;:+#-]{0,63}$/;
export const MAX_KEY_BYTES = 128;
export const MIN_SEGMENTS = 1;
export const MAX_SEGMENTS = 5;

export type KeyFault = "too_long" | "bad_namespace" | "segment_count" | "bad_segment";

/** Splits a key into namespace and segments, or names the rule it breaks. */
export function parseKey(key: string): { namespace: string; segments: string[] } | { fault: KeyFault } {
  // The grammar is ASCII, so characters are bytes; anything else fails a segment anyway.
  if (Buffer.byteLength(key, "utf8") > MAX_KEY_BYTES) return { fault: "too_long" };
  const [namespace = "", ...segments] = key.split(".");
  if (!NAMESPACE.test(namespace)) return { fault: "bad_namespace" };
  if (segments.length < MIN_SEGMENTS || segments.length > MAX_SEGMENTS) return { fault: "segment_count" };
  if (!segments.every((s) => SEGMENT.test(s))) return { fault: "bad_segment" };
  return { namespace, segments };
}

export const keyFaultMessage: Record<KeyFault, string> = {
  too_long: `a key is at most ${MAX_KEY_BYTES} bytes`,
  bad_namespace: "a key starts with a namespace of 2 to 16 characters: a lower-case letter, then [a-z0-9_]",
  segment_count: `a key has ${MIN_SEGMENTS} to ${MAX_SEGMENTS} segments after the namespace`,
  bad_segment: "a key segment is 1 to 64 characters: [A-Za-z0-9_] first, then [A-Za-z0-9_;:+#-]",
};
