// encodeWire (interpreter/wire/encode.ts) against a plain recursive encoder written from the rules
// of Python's json.dumps (ensure_ascii, repr floats, `, ` / `: ` on one line, `indent` as Python
// lays it out, keys whose value is undefined left out): on random wire values of every kind —
// plain objects, Maps, PyDicts with non-string keys, arrays, tuples, ints, big ints, floats,
// strings with escapes and non-ASCII text — with and without indentation.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeWire, floatText, WireDepthError, wireToPlain } from "../../../interpreter/wire/encode";
import type { Wire } from "../../../interpreter/wire/wire";
import { makeDict } from "../../../stdlib/values/dict";
import { jsonFloat, jsonKey } from "../../../stdlib/values/json";
import { PyDict, PyFloat, PyTuple, type PyValue } from "../../../stdlib/values/value";

/** Python's json string literal with ensure_ascii, one code unit at a time. */
function pyString(s: string): string {
  let out = '"';
  for (const ch of s) {
    for (let i = 0; i < ch.length; i++) {
      const c = ch.charCodeAt(i);
      const short: Record<number, string> = {
        8: "\\b",
        9: "\\t",
        10: "\\n",
        12: "\\f",
        13: "\\r",
        34: '\\"',
        92: "\\\\",
      };
      if (short[c] !== undefined) out += short[c];
      else if (c < 0x20 || c > 0x7e) out += `\\u${c.toString(16).padStart(4, "0")}`;
      else out += String.fromCharCode(c);
    }
  }
  return `${out}"`;
}

function reference(v: Wire, indent: number | undefined, pad = ""): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "bigint") return String(v);
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : jsonFloat(v);
  if (typeof v === "string") return pyString(v);
  if (v instanceof PyFloat) return jsonFloat(v.v);
  let items: string[];
  let brackets: [string, string];
  const inner = indent === undefined ? "" : pad + " ".repeat(indent);
  if (Array.isArray(v) || v instanceof PyTuple) {
    const list = (v instanceof PyTuple ? v.items : v) as readonly Wire[];
    items = list.map((x) => reference(x, indent, inner));
    brackets = ["[", "]"];
  } else {
    const entries: [string, Wire][] =
      v instanceof PyDict
        ? [...v.entries.values()].map(([k, x]) => [jsonKey(k), x])
        : v instanceof Map
          ? [...(v as ReadonlyMap<string, Wire>)]
          : Object.entries(v as Record<string, Wire>);
    items = entries
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `${pyString(k)}: ${reference(x, indent, inner)}`);
    brackets = ["{", "}"];
  }
  if (items.length === 0) return brackets.join("");
  if (indent === undefined) return `${brackets[0]}${items.join(", ")}${brackets[1]}`;
  return `${brackets[0]}\n${inner}${items.join(`,\n${inner}`)}\n${pad}${brackets[1]}`;
}

const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.constantFrom("", 'a"b\\c', "\u007f", "é", "\ud83d\ude00", "\ud800", "line\nbreak\ttab"),
);
const leaf: fc.Arbitrary<Wire> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
  fc.double().map((x) => new PyFloat(x)),
  text,
);
const key: fc.Arbitrary<PyValue> = fc.oneof(
  text,
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.double().map((x) => new PyFloat(x)),
);
const { wire } = fc.letrec<{ wire: Wire }>((tie) => ({
  wire: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("wire"), { maxLength: 4 }),
    fc.array(tie("wire"), { maxLength: 3 }).map((items) => new PyTuple(items as PyValue[])),
    fc.dictionary(text, fc.option(tie("wire"), { nil: undefined }), { maxKeys: 4 }),
    fc
      .array(fc.tuple(text, fc.option(tie("wire"), { nil: undefined })), { maxLength: 3 })
      .map((e) => new Map(e)),
    fc.array(fc.tuple(key, tie("wire")), { maxLength: 3 }).map((e) => makeDict(e as [PyValue, PyValue][])),
  ),
}));

/** wireToPlain's rules: floats to numbers, undefined keys left out (null in arrays), the first of two keys of the same JSON text kept. */
function plainReference(v: Wire, bigints: "keep" | "number"): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint") return bigints === "number" ? Number(v) : v;
  if (typeof v !== "object") return v;
  if (v instanceof PyFloat) return v.v;
  if (Array.isArray(v) || v instanceof PyTuple) {
    return ((v instanceof PyTuple ? v.items : v) as readonly Wire[]).map((x) => plainReference(x, bigints));
  }
  const entries: [string, Wire][] =
    v instanceof PyDict
      ? [...v.entries.values()].map(([k, x]) => [jsonKey(k), x])
      : v instanceof Map
        ? [...(v as ReadonlyMap<string, Wire>)]
        : Object.entries(v as Record<string, Wire>);
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, x] of entries) {
    if (x !== undefined && !Object.hasOwn(out, k)) out[k] = plainReference(x, bigints);
  }
  return out;
}

describe("wireToPlain", () => {
  it("converts every wire value as the rules say, shallow or past 64 levels", () => {
    fc.assert(
      fc.property(
        wire,
        fc.constantFrom("keep" as const, "number" as const),
        fc.nat(90),
        (v, bigints, depth) => {
          let deep: Wire = v;
          for (let i = 0; i < depth; i++) deep = i % 2 === 0 ? [deep] : { d: deep };
          expect(wireToPlain(deep, { bigints })).toStrictEqual(plainReference(deep, bigints));
        },
      ),
      { numRuns: 1000 },
    );
    // Two keys of one JSON text: 1 and "1", None and "null".
    const clash = makeDict([
      [1, "int"],
      ["1", "str"],
      [null, "none"],
      ["null", "text"],
    ]);
    expect(wireToPlain([clash])).toStrictEqual([
      Object.assign(Object.create(null), { 1: "int", null: "none" }),
    ]);
  });

  it("keeps a `__proto__` key as an own property of an object without a prototype", () => {
    const own = (x: unknown): Record<string, unknown> => {
      const o: Record<string, unknown> = Object.create(null);
      Object.defineProperty(o, "__proto__", {
        value: x,
        writable: true,
        enumerable: true,
        configurable: true,
      });
      o.a = 2n;
      return o;
    };
    const object: Record<string, Wire> = {};
    Object.defineProperty(object, "__proto__", {
      value: ["v"],
      writable: true,
      enumerable: true,
      configurable: true,
    });
    object.a = 2n;
    for (const v of [
      new Map<string, Wire>([
        ["__proto__", ["v"]],
        ["a", 2n],
      ]),
      makeDict([
        ["__proto__", ["v"]],
        ["a", 2n],
      ]),
      object,
    ] as Wire[]) {
      const plain = wireToPlain(v) as Record<string, unknown>;
      expect(Object.getPrototypeOf(plain)).toBeNull();
      expect(Object.keys(plain)).toEqual(["__proto__", "a"]);
      expect(plain).toStrictEqual(own(["v"]));
      expect(JSON.stringify(wireToPlain(v, { bigints: "number" }))).toBe('{"__proto__":["v"],"a":2}');
    }
  });
});

describe("encodeWire", () => {
  it("writes what json.dumps writes, on one line and indented", () => {
    fc.assert(
      fc.property(wire, fc.constantFrom(undefined, 0, 2, 4), (v, indent) => {
        expect(encodeWire(v, indent === undefined ? {} : { indent })).toBe(reference(v, indent));
      }),
      { numRuns: 2000 },
    );
  });

  it("writes keys seen before exactly as the first time (encoded keys are kept), past the cache's size too", () => {
    const keys = Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? `k${i}é"` : `key ${i}`));
    const long = `${"x".repeat(100)}\u0001`;
    const v = new Map<string, Wire>([...keys.map((k): [string, Wire] => [k, k]), [long, { [long]: 1 }]]);
    for (const indent of [undefined, 2]) {
      const expected = reference(v, indent);
      expect(encodeWire(v, indent === undefined ? {} : { indent })).toBe(expected);
      expect(encodeWire(v, indent === undefined ? {} : { indent })).toBe(expected);
    }
  });

  it("writes floats as jsonFloat does (the fast path for fixed notation included)", () => {
    const edges = [
      1e-4,
      1e-4 * (1 - 2 ** -52),
      1e-4 * (1 + 2 ** -52),
      1e16,
      1e16 - 2,
      1e16 - 1.5,
      2 ** 53 - 0.5,
    ];
    for (const x of [...edges, ...edges.map((e) => -e), 0, -0, 0.5, 0.8, 1.5, 123.456, 1764199999.123456]) {
      expect(floatText(x)).toBe(jsonFloat(x));
    }
    fc.assert(
      fc.property(fc.double(), (x) => {
        expect(floatText(x)).toBe(jsonFloat(x));
      }),
      { numRuns: 100_000 },
    );
    fc.assert(
      fc.property(fc.double({ min: 1e-5, max: 1e17, noNaN: true }), fc.boolean(), (x, negative) => {
        const v = negative ? -x : x;
        expect(floatText(v)).toBe(jsonFloat(v));
      }),
      { numRuns: 100_000 },
    );
  });

  it("refuses a value nested deeper than maxDepth, counting empty containers too", () => {
    expect(encodeWire([[[]]], { maxDepth: 3 })).toBe("[[[]]]");
    expect(() => encodeWire([[[]]], { maxDepth: 2 })).toThrow(WireDepthError);
    expect(() => encodeWire({ a: { b: {} } }, { maxDepth: 2 })).toThrow(WireDepthError);
    expect(encodeWire({ a: undefined, b: [undefined] })).toBe('{"b": [null]}');
  });

  it("writes each value whole after an encoding that failed half way (nothing of it is left over)", () => {
    fc.assert(
      fc.property(wire, wire, (before, v) => {
        const deep = { written: before, after: [[[["too deep"]]]] };
        expect(() => encodeWire(deep, { maxDepth: 3 })).toThrow(WireDepthError);
        expect(() => encodeWire([before, new Date(0) as unknown as Wire])).toThrow(TypeError);
        expect(encodeWire(v)).toBe(reference(v, undefined));
      }),
      { numRuns: 300 },
    );
  });

  it("writes values past the recursive fast path's reach (64 levels, 65,536 parts) as json.dumps does, on one line and indented", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 60, max: 200 }),
        fc.constantFrom("array", "object", "map"),
        (depth, kind) => {
          let v: Wire = [1, "x", { k: new PyFloat(0.5) }];
          for (let i = 0; i < depth; i++)
            v =
              kind === "array"
                ? [i, v]
                : kind === "object"
                  ? { a: i, b: v }
                  : new Map<string, Wire>([["m", v]]);
          expect(encodeWire(v)).toBe(reference(v, undefined));
          expect(encodeWire(v, { indent: 2 })).toBe(reference(v, 2));
          expect(() => encodeWire(v, { maxDepth: depth })).toThrow(WireDepthError);
          expect(encodeWire(v, { maxDepth: depth + 2 })).toBe(reference(v, undefined));
        },
      ),
      { numRuns: 60 },
    );
    const wide = Array.from({ length: 40_000 }, (_, i): Wire => (i % 2 === 0 ? i : { i: `v${i}` }));
    expect(encodeWire(wide)).toBe(reference(wide, undefined));
    const wideMap = new Map<string, Wire>(wide.map((w, i) => [`k${i}`, w]));
    expect(encodeWire({ top: wideMap })).toBe(reference({ top: wideMap }, undefined));
    expect(encodeWire({ top: wideMap }, { indent: 2 })).toBe(reference({ top: wideMap }, 2));
  });
});
