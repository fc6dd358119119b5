// Strict UTF-8 decoding for the workspace tools. A failure is described with the exact text of
// Python's UnicodeDecodeError (`'utf-8' codec can't decode byte 0xff in position 0: invalid start
// byte`), the message the reference shows for the same file. A byte order mark is kept (Python's
// "utf-8" codec keeps it as U+FEFF); callers decide what it means.

export type Decoded =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: string };

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function decodeUtf8(bytes: Uint8Array): Decoded {
  try {
    return { ok: true, text: decoder.decode(bytes) };
  } catch {
    return { ok: false, reason: pythonDecodeError(bytes) };
  }
}

interface BadRange {
  readonly start: number;
  readonly end: number;
  readonly why: string;
}

/** The message of the UnicodeDecodeError CPython raises for the first malformed sequence. */
export function pythonDecodeError(bytes: Uint8Array): string {
  const bad = firstBadRange(bytes);
  if (bad === null) return "'utf-8' codec can't decode: invalid data";
  if (bad.end - bad.start === 1) {
    const hex = (bytes[bad.start] ?? 0).toString(16).padStart(2, "0");
    return `'utf-8' codec can't decode byte 0x${hex} in position ${bad.start}: ${bad.why}`;
  }
  return `'utf-8' codec can't decode bytes in position ${bad.start}-${bad.end - 1}: ${bad.why}`;
}

const isContinuation = (b: number | undefined): boolean => b !== undefined && b >= 0x80 && b <= 0xbf;

/**
 * CPython's UTF-8 decoder (Objects/stringlib/codecs.h): an invalid lead byte is one byte; a
 * sequence cut short by the end of the data runs to the end ("unexpected end of data"); otherwise
 * the error covers the lead byte and the valid continuation bytes before the first bad one. The
 * second byte's range is narrowed for E0, ED, F0 and F4 (no overlongs, surrogates, or > U+10FFFF).
 */
function firstBadRange(bytes: Uint8Array): BadRange | null {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const need =
      lead >= 0xc2 && lead <= 0xdf
        ? 1
        : lead >= 0xe0 && lead <= 0xef
          ? 2
          : lead >= 0xf0 && lead <= 0xf4
            ? 3
            : 0;
    if (need === 0) return { start: i, end: i + 1, why: "invalid start byte" };
    const lo = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const hi = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= need; k++) {
      const b = bytes[i + k];
      if (b === undefined) return { start: i, end: bytes.length, why: "unexpected end of data" };
      const ok = k === 1 ? b >= lo && b <= hi : isContinuation(b);
      if (!ok) return { start: i, end: i + k, why: "invalid continuation byte" };
    }
    i += need + 1;
  }
  return null;
}
