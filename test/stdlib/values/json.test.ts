import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeDict } from "../../../stdlib/values/dict";
import {
  canonicalJson,
  fromJsonValue,
  JsonSyntaxError,
  parseJson,
  toJson,
} from "../../../stdlib/values/json";
import { makeNamespace } from "../../../stdlib/values/namespace";
import { repr } from "../../../stdlib/values/repr";
import { PyBoundMethod, PyFloat, PyGenerator, type PyValue, PyView } from "../../../stdlib/values/value";
import { d, f } from "./support";
import { ENCODE_ROWS, PARSE_ROWS } from "./tables/json";

function decoded(text: string): string {
  try {
    return repr(parseJson(text));
  } catch (e) {
    if (e instanceof JsonSyntaxError) return `!JSONDecodeError: ${e.message}`;
    throw e;
  }
}

describe("parseJson against CPython json.loads", () => {
  it.each(PARSE_ROWS)("%j", (text, expected) => {
    expect(decoded(text)).toBe(expected);
  });

  it("keeps the int/float distinction and exact big ints", () => {
    expect(parseJson("1")).toBe(1);
    expect(parseJson("1.0")).toBeInstanceOf(PyFloat);
    expect(parseJson("123456789012345678901234567890")).toBe(123456789012345678901234567890n);
    expect(Object.is(parseJson("-0"), 0)).toBe(true);
    expect(parseJson("-9007199254740991")).toBe(-9007199254740991);
    expect(parseJson("9999999999999999")).toBe(9999999999999999n);
    expect(parseJson("-999999999999999")).toBe(-999999999999999);
  });

  it("parses very deep nesting without overflowing the stack", () => {
    const depth = 100_000;
    let v = parseJson(`${"[".repeat(depth)}${"]".repeat(depth)}`);
    let n = 1;
    while (Array.isArray(v) && v.length === 1) {
      v = v[0] ?? null;
      n++;
    }
    expect(n).toBe(depth);
  });
});

describe("toJson and canonicalJson against CPython json.dumps", () => {
  it.each(ENCODE_ROWS.map((r) => [repr(r[0]), r] as const))("%s", (_label, [value, dumped, canonical]) => {
    expect(toJson(value)).toBe(dumped);
    expect(canonicalJson(value)).toBe(canonical);
  });

  it("follows the spec example of docs/reference/language.md §10.16", () => {
    expect(canonicalJson(parseJson('{"b": [1, 2.0, "é"], "a": null}'))).toBe(
      '{"a": null, "b": [1, 2.0, "\\u00e9"]}',
    );
  });

  it("sorts converted keys by code point", () => {
    expect(canonicalJson(d([10, "a"], [9, "b"]))).toBe('{"10": "a", "9": "b"}');
  });

  it("encodes namespaces, views, generators and bound methods", () => {
    const ns = makeNamespace(d(["b", 1], ["a", [f(1.5)]]));
    expect(toJson(ns)).toBe('{"b": 1, "a": [1.5]}');
    expect(canonicalJson(ns)).toBe('"namespace(b=1, a=[1.5])"');
    expect(canonicalJson([ns])).toBe('["namespace(b=1, a=[1.5])"]');
    const view = new PyView("items", d(["a", 1]));
    expect(toJson(view)).toBe('[["a", 1]]');
    expect(canonicalJson(view)).toBe("\"dict_items([('a', 1)])\"");
    expect(toJson(new PyGenerator([][Symbol.iterator]()))).toBe('"<generator object <genexpr>>"');
    expect(toJson(new PyBoundMethod("é", "upper"))).toBe('"<built-in method upper of str object>"');
  });

  it("can keep non-ASCII text unescaped", () => {
    expect(toJson(["é😀\n"], { ensureAscii: false })).toBe('["é😀\\n"]');
  });

  it("round-trips through parseJson", () => {
    const values: PyValue[] = [
      d(["a", [1, f(1), f(-0), f(Number.NaN), 2n ** 80n]], ["é", null]),
      [true, false, "\ud800x", f(1e-7), f(Number.NEGATIVE_INFINITY)],
    ];
    for (const v of values) expect(repr(parseJson(toJson(v)))).toBe(repr(v));
  });
});

describe("fromJsonValue", () => {
  it("maps JSON.parse output (integral numbers → int)", () => {
    expect(repr(fromJsonValue(JSON.parse('{"a": [1, 1.5, 1e21, -0, null, "x", true]}')))).toBe(
      "{'a': [1, 1.5, 1000000000000000000000, 0, None, 'x', True]}",
    );
  });
});

describe("fromJsonValue of objects", () => {
  // The definition it must keep: a dict of the converted Object.entries, in their order.
  const byEntries = (v: unknown): PyValue =>
    Array.isArray(v)
      ? v.map(byEntries)
      : v !== null && typeof v === "object"
        ? makeDict(Object.entries(v).map(([k, x]) => [k, byEntries(x)] as const))
        : fromJsonValue(v);

  it("is the dict of the object's own entries, in their order (odd keys included)", () => {
    const key = fc.oneof(fc.string(), fc.constantFrom("__proto__", "constructor", "0", "10", "-1", "1.5"));
    const json = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double(), fc.string()),
        fc.array(tie("v"), { maxLength: 3 }),
        fc
          .array(fc.tuple(key, tie("v")), { maxLength: 4 })
          .map((pairs) => Object.fromEntries(pairs) as unknown),
      ),
    })).v;
    fc.assert(
      fc.property(json, fc.boolean(), (v, bare) => {
        // JSON.parse's objects and null-prototype ones alike.
        const input =
          bare && v !== null && typeof v === "object" && !Array.isArray(v)
            ? Object.assign(Object.create(null), v)
            : v;
        expect(repr(fromJsonValue(input))).toBe(repr(byEntries(input)));
        expect(repr(fromJsonValue(JSON.parse(JSON.stringify(v) ?? "null")))).toBe(
          repr(byEntries(JSON.parse(JSON.stringify(v) ?? "null"))),
        );
      }),
      { numRuns: 300 },
    );
  });
});
