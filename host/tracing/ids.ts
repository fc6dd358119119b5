// Trace and span ids that every process computes alike (docs/guides/tracing.md, "Identity"): the trace id
// is the root flow's id (a UUID is 32 hex digits), span ids are hashes of what names the span, so
// the spans of one flow join one trace even when several processes (or a restart) took part.
//
// The hash is not cryptographic (nothing here is secret; ids only need to differ): two 32-bit
// multiply-xorshift lanes over the UTF-16 units, a few hundred nanoseconds per id, where sha256
// through node:crypto cost a tool call several microseconds (bench/otlp-bench.ts).

const HEX32 = /^[0-9a-f]{32}$/;

/** The trace id of a root flow: its UUID's hex digits, or a hash of an id that is not a UUID. */
export function traceIdOf(rootFlowId: string): string {
  const hex = rootFlowId.replaceAll("-", "").toLowerCase();
  if (HEX32.test(hex) && !/^0+$/.test(hex)) return hex;
  return nonZero(hash64(`trace\u0000${rootFlowId}`, 1) + hash64(`trace\u0000${rootFlowId}`, 2));
}

/** A span id (16 hex digits) from the parts that name the span. */
export function spanIdOf(...parts: readonly (string | number)[]): string {
  // Joined with a character no id contains, so ("a b", "c") and ("a", "b c") differ.
  return nonZero(hash64(parts.join("\u0000"), 0));
}

/** 64 bits of hash as 16 hex digits; `seed` picks an independent hash. */
function hash64(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, "0") + (h1 >>> 0).toString(16).padStart(8, "0");
}

/** An all-zero id is invalid in OTLP; the chance is 2^-64, but the answer must still be valid. */
function nonZero(hex: string): string {
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}
