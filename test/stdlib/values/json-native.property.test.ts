import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson } from "../../../stdlib/values/json";
import { type ParseJsonOptions, parseJsonReference } from "../../../stdlib/values/json-parse";
import { parseJsonNative } from "../../../stdlib/values/json-parse-native";
import { PyDict, PyFloat, type PyValue } from "../../../stdlib/values/value";

/** A value with every kind spelled out: int, big int, float (with -0 and NaN), dict keys in order. */
function shape(v: PyValue): unknown {
  if (v === null || typeof v === "boolean") return v;
  if (typeof v === "string") return ["str", v];
  if (typeof v === "number") return ["int", Object.is(v, -0) ? "-0" : String(v)];
  if (typeof v === "bigint") return ["big", String(v)];
  if (v instanceof PyFloat) return ["float", Object.is(v.v, -0) ? "-0" : String(v.v)];
  if (Array.isArray(v)) return ["list", v.map(shape)];
  if (v instanceof PyDict) return ["dict", [...v.entries].map(([hk, [k, x]]) => [hk, shape(k), shape(x)])];
  return ["other", String(v)];
}

/** What a parser answers: the value's shape, or its error's class and message. */
function outcome(parse: () => PyValue): unknown {
  try {
    return shape(parse());
  } catch (e) {
    return ["error", e instanceof Error ? e.constructor.name : typeof e, String(e)];
  }
}

function agrees(text: string, options: ParseJsonOptions = {}): void {
  expect(outcome(() => parseJson(text, options))).toEqual(outcome(() => parseJsonReference(text, options)));
}

const hex = fc.integer({ min: 0, max: 0xffff }).chain((n) =>
  fc.boolean().map((upper) => {
    const h = n.toString(16).padStart(4, "0");
    return `\\u${upper ? h.toUpperCase() : h}`;
  }),
);
/** The text between a string's quotes: plain characters (any script, astral too), escapes, \u escapes (lone surrogates too). */
const stringBody = fc
  .array(
    fc.oneof(
      fc
        .string({ unit: "grapheme", maxLength: 3 })
        .map((s) => [...s].filter((c) => c !== '"' && c !== "\\" && c >= " ").join("")),
      fc.constantFrom('\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", '\\\\\\"'),
      hex,
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(""));
const key = fc.oneof(
  stringBody,
  fc.constantFrom(
    "1",
    "0",
    "01",
    "-1",
    "4294967295",
    "__proto__",
    "",
    "constructor",
    "\\u0031",
    "\\u0001a",
    "a",
  ),
);
const numberToken = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? "-0.0" : String(x))),
  fc.constantFrom(
    "1.0",
    "-0",
    "-0.0",
    "0e0",
    "1E-2",
    "2e+3",
    "123456789012345",
    "1234567890123456",
    "9007199254740993",
    "-9999999999999999",
    "1.5e308",
    "1e400",
  ),
);
const space = fc.constantFrom("", " ", "\n  ", "\t", "\r\n");

const text: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("null", "true", "false"),
    numberToken,
    stringBody.map((s) => `"${s}"`),
    fc
      .tuple(fc.array(fc.tuple(space, tie("value")), { maxLength: 4 }), space)
      .map(([items, end]) => `[${items.map(([s, v]) => `${s}${v}`).join(",")}${end}]`),
    fc
      .tuple(fc.array(fc.tuple(key, space, tie("value")), { maxLength: 4 }), space)
      .map(([members, end]) => `{${members.map(([k, s, v]) => `${s}"${k}"${s}:${s}${v}`).join(",")}${end}}`),
  ),
})).value;

/** A valid text with a duplicated member, a changed character, or a cut: mostly invalid or reordered. */
const damaged = fc
  .tuple(
    text,
    fc.nat(),
    fc.constantFrom("", "[", "]", "{", "}", ",", ":", '"', "\\", "-", ".", "e", "0", "NaN", "\n", "\u0001"),
  )
  .map(([t, at, insert]) => {
    const i = t.length === 0 ? 0 : at % t.length;
    return `${t.slice(0, i)}${insert}${t.slice(i + (at % 2))}`;
  });

describe("parseJson's fast path (JSON.parse and a scan) against the reference parser", () => {
  it("gives the same values and kinds, or the same error, for random texts", () => {
    fc.assert(
      fc.property(text, (t) => agrees(t)),
      { numRuns: 2_000, seed: 49 },
    );
  });

  it("gives the same answer for damaged texts", () => {
    fc.assert(
      fc.property(damaged, (t) => agrees(t)),
      { numRuns: 2_000, seed: 50 },
    );
  });

  it("takes the fast path for ordinary texts, floats and big integers included", () => {
    const t =
      '{"a": 1.0, "b": [1, -0, 12345678901234567890, 2.5e3, "\\u00e9\\ud83d\\ude00"], "c": {"d": null}}';
    expect(parseJsonNative(t, Number.POSITIVE_INFINITY)).toBeDefined();
    expect(shape(parseJson(t))).toEqual([
      "dict",
      [
        ["a", ["str", "a"], ["float", "1"]],
        [
          "b",
          ["str", "b"],
          [
            "list",
            [
              ["int", "1"],
              ["int", "0"],
              ["big", "12345678901234567890"],
              ["float", "2500"],
              ["str", "é😀"],
            ],
          ],
        ],
        ["c", ["str", "c"], ["dict", [["d", ["str", "d"], null]]]],
      ],
    ]);
  });

  it("leaves to the reference what JSON.parse would answer otherwise", () => {
    for (const t of [
      '{"b": 1, "1": 2}', // JSON.parse puts the index key first
      '{"a": [1.5], "a": 2, "x": 3.0}', // the first value's float would be counted
      '{"\\u0031": 1}',
      "[NaN, Infinity, -Infinity]",
      "[1,]",
    ])
      expect(parseJsonNative(t, Number.POSITIVE_INFINITY)).toBeUndefined();
    agrees('{"b": 1, "1": 2}');
    agrees('{"a": [1.5], "a": 2, "x": 3.0}');
    agrees('{"__proto__": {"x": 1.0}, "constructor": 2}');
    agrees("[NaN, Infinity, -Infinity]");
    agrees("[NaN]", { constants: false });
  });

  it("agrees on nesting at and around every depth limit", () => {
    for (const depth of [511, 512, 513, 1_099, 1_100, 1_101, 5_000]) {
      const nested = `${"[".repeat(depth - 1)}{"x": 1.0}${"]".repeat(depth - 1)}`;
      agrees(nested);
      agrees(nested, { maxDepth: 512 });
      agrees(nested, { maxDepth: 1_100 });
    }
  });
});
