// Strict UTF-8 decoding with CPython's error text (`'utf-8' codec can't decode byte 0xff in
// position 0: invalid start byte`), for a file the reference opens with encoding="utf-8".

export type StrictDecode =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly message: string };

/** The allowed range of the second byte after a lead byte (CPython's decoder, RFC 3629). */
function secondRange(lead: number): readonly [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function failure(bytes: Uint8Array, start: number, end: number, reason: string): StrictDecode {
  const where =
    end - start === 1
      ? `byte 0x${(bytes[start] ?? 0).toString(16).padStart(2, "0")} in position ${start}`
      : `bytes in position ${start}-${end - 1}`;
  return { ok: false, message: `'utf-8' codec can't decode ${where}: ${reason}` };
}

/** The first error CPython reports, scanning the sequences in order. */
function firstError(bytes: Uint8Array): StrictDecode | null {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    const n = sequenceLength(lead);
    if (n === 0) return failure(bytes, i, i + 1, "invalid start byte");
    for (let j = 1; j < n; j++) {
      if (i + j >= bytes.length) return failure(bytes, i, bytes.length, "unexpected end of data");
      const b = bytes[i + j] as number;
      const [lo, hi] = j === 1 ? secondRange(lead) : [0x80, 0xbf];
      if (b < lo || b > hi) return failure(bytes, i, i + j, "invalid continuation byte");
    }
    i += n;
  }
  return null;
}

export function decodeUtf8Strict(bytes: Uint8Array): StrictDecode {
  const error = firstError(bytes);
  if (error !== null) return error;
  return { ok: true, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) };
}
