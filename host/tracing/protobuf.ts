// The protobuf wire format, writing only: varints, fixed64, length-delimited fields. Enough for
// OTLP (otlp-proto.ts); a message is built into a growable buffer, nested messages first into
// their own writer so their length is known.

const utf8 = new TextEncoder();

export class ProtoWriter {
  private buf = new Uint8Array(64);
  private len = 0;

  /** The bytes written so far. */
  finish(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }

  /**
   * A varint field (wire type 0): uint32, int64 (two's complement), bool, enum. Zero is left out
   * unless `always` (a member of a oneof is written even when zero).
   */
  varint(field: number, value: number | bigint, always = false): void {
    if ((value === 0 || value === 0n) && !always) return;
    this.tag(field, 0);
    this.rawVarint(BigInt.asUintN(64, BigInt(value)));
  }

  /** A fixed64 field (wire type 1), as OTLP's timestamps. */
  fixed64(field: number, value: bigint): void {
    if (value === 0n) return;
    this.tag(field, 1);
    this.reserve(8);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.len, 8).setBigUint64(0, value, true);
    this.len += 8;
  }

  /** A double field (wire type 1). */
  double(field: number, value: number): void {
    this.tag(field, 1);
    this.reserve(8);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.len, 8).setFloat64(0, value, true);
    this.len += 8;
  }

  /** A string field (wire type 2, UTF-8). Empty strings are left out unless `always`. */
  string(field: number, value: string, always = false): void {
    if (value === "" && !always) return;
    this.bytes(field, utf8.encode(value), always);
  }

  /** A bytes field (wire type 2). */
  bytes(field: number, value: Uint8Array, always = false): void {
    if (value.length === 0 && !always) return;
    this.tag(field, 2);
    this.rawVarint(BigInt(value.length));
    this.reserve(value.length);
    this.buf.set(value, this.len);
    this.len += value.length;
  }

  /** An embedded message field, always written (an empty message still says the field is set). */
  message(field: number, write: (w: ProtoWriter) => void): void {
    const inner = new ProtoWriter();
    write(inner);
    this.bytes(field, inner.finish(), true);
  }

  private tag(field: number, wireType: number): void {
    this.rawVarint(BigInt(field * 8 + wireType));
  }

  private rawVarint(value: bigint): void {
    this.reserve(10);
    let v = value;
    while (v >= 0x80n) {
      this.buf[this.len++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.len++] = Number(v);
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
}

/** Hex digits as bytes (trace and span ids). */
export function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}
