// The journal framing (host/file-store/journal.ts): entries read back exactly; a torn last frame
// is dropped and reported as torn, a damaged frame before other data as corrupt, each with where
// and why; appends check the size they expect and flush; a torn tail is truncated only under the
// lock. A fast-check property cuts and flips random journals and compares with the intact prefix.
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  appendEntry,
  encodeFrame,
  FRAME_HEADER_BYTES,
  JournalMovedError,
  type JournalScan,
  readJournal,
  scanFrames,
  truncateTornTail,
} from "../../host/file-store/journal";
import { acquireLock, DEFAULT_LOCK_TIMINGS, releaseLock } from "../../host/file-store/lock";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(join(tmpdir(), "stratum-journal-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An independent table CRC-32 (IEEE 802.3, reflected), to pin the frame format. */
function tableCrc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function journalOf(payloads: readonly string[]): { bytes: Buffer; starts: number[] } {
  const frames = payloads.map(encodeFrame);
  const starts: number[] = [];
  let at = 0;
  for (const f of frames) {
    starts.push(at);
    at += f.length;
  }
  return { bytes: Buffer.concat(frames), starts };
}

function appendAll(path: string, payloads: readonly string[]): number {
  let size = 0;
  for (const p of payloads) size = appendEntry(path, p, { expectedSize: size }).end;
  return size;
}

const payloadsOf = (scan: JournalScan | null) => scan?.entries.map((e) => e.payload);

describe("frames", () => {
  it("have a 12-byte header: length, CRC-32 of the payload, CRC-32 of the first 8 bytes", () => {
    const frame = encodeFrame("123456789");
    expect(frame.length).toBe(FRAME_HEADER_BYTES + 9);
    expect(frame.readUInt32LE(0)).toBe(9);
    expect(frame.readUInt32LE(4)).toBe(0xcbf43926); // the standard CRC-32 check value
    expect(frame.readUInt32LE(8)).toBe(tableCrc32(frame.subarray(0, 8)));
    expect(frame.subarray(FRAME_HEADER_BYTES).toString("utf8")).toBe("123456789");
  });

  it("refuse a payload UTF-8 cannot hold", () => {
    expect(() => encodeFrame("a\ud800b")).toThrow(RangeError);
    expect(encodeFrame("😀 é").length).toBe(FRAME_HEADER_BYTES + Buffer.byteLength("😀 é"));
  });

  it("read back with their offsets; an empty journal has no entries and no damage", () => {
    const { bytes, starts } = journalOf(["a", "", '{"x": 1}', "ünï😀"]);
    const scan = scanFrames(bytes);
    expect(scan.damage).toBeNull();
    expect(scan.entries.map((e) => [e.offset, e.payload])).toEqual([
      [starts[0], "a"],
      [starts[1], ""],
      [starts[2], '{"x": 1}'],
      [starts[3], "ünï😀"],
    ]);
    expect(scan.end).toBe(bytes.length);
    expect(scanFrames(Buffer.alloc(0))).toEqual({ entries: [], end: 0, size: 0, damage: null });
  });

  it("scan from a boundary with file offsets", () => {
    const { bytes, starts } = journalOf(["one", "two", "three"]);
    const scan = scanFrames(bytes.subarray(starts[1]!), starts[1]!);
    expect(scan.entries.map((e) => [e.offset, e.payload])).toEqual([
      [starts[1], "two"],
      [starts[2], "three"],
    ]);
    expect(scan.end).toBe(bytes.length);
  });
});

describe("damage", () => {
  const payloads = ["first entry", "second entry", "third entry"];

  it("a last frame cut inside its header is torn (incomplete header)", () => {
    const { bytes, starts } = journalOf(payloads);
    const scan = scanFrames(bytes.subarray(0, starts[2]! + 5));
    expect(payloadsOf(scan)).toEqual(payloads.slice(0, 2));
    expect(scan.damage).toEqual({ kind: "torn", offset: starts[2], reason: "incomplete header", bytes: 5 });
    expect(scan.end).toBe(starts[2]);
  });

  it("a last frame cut inside its payload is torn (incomplete payload)", () => {
    const { bytes, starts } = journalOf(payloads);
    const scan = scanFrames(bytes.subarray(0, bytes.length - 1));
    expect(scan.damage).toEqual({
      kind: "torn",
      offset: starts[2],
      reason: "incomplete payload",
      bytes: bytes.length - 1 - starts[2]!,
    });
  });

  it("a last frame whose bytes did not all reach the disk (zeros) is torn", () => {
    const { bytes, starts } = journalOf(payloads);
    bytes.fill(0, starts[2]! + FRAME_HEADER_BYTES);
    expect(scanFrames(bytes).damage).toMatchObject({
      kind: "torn",
      offset: starts[2],
      reason: "payload checksum mismatch",
    });
    const zeros = Buffer.concat([journalOf(payloads).bytes, Buffer.alloc(40)]);
    expect(scanFrames(zeros).damage).toMatchObject({
      kind: "torn",
      reason: "header checksum mismatch",
      bytes: 40,
    });
    expect(payloadsOf(scanFrames(zeros))).toEqual(payloads);
  });

  it("a changed byte in the last frame is torn; in an earlier frame it is corrupt", () => {
    const { bytes, starts } = journalOf(payloads);
    const last = Buffer.from(bytes);
    last[starts[2]! + FRAME_HEADER_BYTES + 1]! ^= 0x10;
    expect(scanFrames(last).damage).toMatchObject({ kind: "torn", offset: starts[2] });

    const middle = Buffer.from(bytes);
    middle[starts[1]! + FRAME_HEADER_BYTES + 1]! ^= 0x10;
    const scan = scanFrames(middle);
    expect(payloadsOf(scan)).toEqual(payloads.slice(0, 1));
    expect(scan.damage).toEqual({
      kind: "corrupt",
      offset: starts[1],
      reason: "payload checksum mismatch",
      bytes: bytes.length - starts[1]!,
    });

    const header = Buffer.from(bytes);
    header[starts[1]!]! ^= 0x01; // the length: never trusted once the header checksum fails
    expect(scanFrames(header).damage).toMatchObject({
      kind: "corrupt",
      offset: starts[1],
      reason: "header checksum mismatch",
    });
  });
});

describe("appendEntry and readJournal", () => {
  it("append, flush and read back; an absent journal reads as null", () => {
    const path = join(dir, "f.journal");
    expect(readJournal(path)).toBeNull();
    const first = appendEntry(path, "one", { expectedSize: 0 });
    expect(first).toEqual({ offset: 0, end: FRAME_HEADER_BYTES + 3, created: true });
    const second = appendEntry(path, "two", { expectedSize: first.end, sync: "full" });
    expect(second.created).toBe(false);
    expect(payloadsOf(readJournal(path))).toEqual(["one", "two"]);
    expect(payloadsOf(readJournal(path, first.end))).toEqual(["two"]);
    expect(fs.statSync(path).size).toBe(second.end);
  });

  it("refuse to append when the journal is not the size expected, and change nothing", () => {
    const path = join(dir, "f.journal");
    const size = appendAll(path, ["one", "two"]);
    const before = fs.readFileSync(path);
    expect(() => appendEntry(path, "three", { expectedSize: size - 1 })).toThrow(JournalMovedError);
    expect(() => appendEntry(path, "three", { expectedSize: 0 })).toThrow(JournalMovedError);
    expect(fs.readFileSync(path)).toEqual(before);
    const absent = join(dir, "absent.journal");
    expect(() => appendEntry(absent, "x", { expectedSize: 5 })).toThrow(/does not exist/);
    expect(fs.existsSync(absent)).toBe(false);
    expect(() => readJournal(path, size + 1)).toThrow(JournalMovedError);
  });
});

describe("truncateTornTail", () => {
  it("drops a torn tail under the lock, after which appends go on", async () => {
    const path = join(dir, "f.journal");
    const size = appendAll(path, ["one", "two"]);
    fs.appendFileSync(path, encodeFrame("three").subarray(0, 15)); // a torn append
    const scan = readJournal(path)!;
    expect(scan.damage).toMatchObject({ kind: "torn", offset: size, bytes: 15 });
    const lock = (await acquireLock(`${path}.lock`, DEFAULT_LOCK_TIMINGS))!;
    try {
      expect(truncateTornTail(path, scan, lock)).toBe(size);
      appendEntry(path, "three", { expectedSize: size });
    } finally {
      releaseLock(lock);
    }
    expect(readJournal(path)).toMatchObject({ damage: null });
    expect(payloadsOf(readJournal(path))).toEqual(["one", "two", "three"]);
  });

  it("refuses without the lock, on corruption, and when the journal moved", async () => {
    const path = join(dir, "f.journal");
    const size = appendAll(path, ["one", "two"]);
    fs.appendFileSync(path, Buffer.from([1, 2, 3]));
    const scan = readJournal(path)!;
    const lock = (await acquireLock(`${path}.lock`, DEFAULT_LOCK_TIMINGS))!;
    releaseLock(lock);
    expect(() => truncateTornTail(path, scan, lock)).toThrow(/not held/);

    const held = (await acquireLock(`${path}.lock`, DEFAULT_LOCK_TIMINGS))!;
    try {
      fs.appendFileSync(path, Buffer.from([4]));
      expect(() => truncateTornTail(path, scan, held)).toThrow(JournalMovedError);
      const corrupt = Buffer.from(fs.readFileSync(path).subarray(0, size));
      corrupt[FRAME_HEADER_BYTES]! ^= 0xff;
      fs.writeFileSync(path, corrupt);
      const damaged = readJournal(path)!;
      expect(damaged.damage?.kind).toBe("corrupt");
      expect(() => truncateTornTail(path, damaged, held)).toThrow(/corrupt/);
      expect(fs.statSync(path).size).toBe(size);
    } finally {
      releaseLock(held);
    }
  });
});

describe("property: a damaged journal reads as exactly its intact prefix", () => {
  const payloadArb = fc.string({ unit: "binary", maxLength: 80 });
  const entriesArb = fc.array(payloadArb, { minLength: 1, maxLength: 12 });
  const damageArb = fc.oneof(
    fc.record({ kind: fc.constant("truncate" as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
    fc.record({
      kind: fc.constant("flip" as const),
      at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
      bit: fc.integer({ min: 0, max: 7 }),
    }),
    fc.record({
      kind: fc.constant("garbage" as const),
      bytes: fc.uint8Array({ minLength: 1, maxLength: 40 }),
    }),
  );

  it("after a random cut, bit flip or garbage tail", () => {
    fc.assert(
      fc.property(entriesArb, damageArb, (payloads, damage) => {
        const { bytes, starts } = journalOf(payloads);
        const ends = starts.map((_s, i) => starts[i + 1] ?? bytes.length);
        const frameOf = (pos: number) => ends.findIndex((e) => pos < e);
        if (damage.kind === "truncate") {
          const cut = Math.floor(damage.at * bytes.length);
          const scan = scanFrames(bytes.subarray(0, cut));
          const intact = ends.filter((e) => e <= cut).length;
          expect(payloadsOf(scan)).toEqual(payloads.slice(0, intact));
          if (intact === payloads.length || starts[intact] === cut) expect(scan.damage).toBeNull();
          else {
            const offset = starts[intact]!;
            expect(scan.damage).toEqual({
              kind: "torn",
              offset,
              reason: cut - offset < FRAME_HEADER_BYTES ? "incomplete header" : "incomplete payload",
              bytes: cut - offset,
            });
          }
        } else if (damage.kind === "flip") {
          const pos = Math.floor(damage.at * bytes.length);
          const flipped = Buffer.from(bytes);
          flipped[pos]! ^= 1 << damage.bit;
          const i = frameOf(pos);
          const scan = scanFrames(flipped);
          expect(payloadsOf(scan)).toEqual(payloads.slice(0, i));
          expect(scan.damage).toEqual({
            kind: i === payloads.length - 1 ? "torn" : "corrupt",
            offset: starts[i],
            reason:
              pos - starts[i]! < FRAME_HEADER_BYTES
                ? "header checksum mismatch"
                : "payload checksum mismatch",
            bytes: bytes.length - starts[i]!,
          });
        } else {
          const scan = scanFrames(Buffer.concat([bytes, damage.bytes]));
          expect(payloadsOf(scan)).toEqual(payloads);
          expect(scan.damage).toMatchObject({
            kind: "torn",
            offset: bytes.length,
            bytes: damage.bytes.length,
          });
        }
      }),
      { numRuns: 500, seed: 14 },
    );
  });
});
