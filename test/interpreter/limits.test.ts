// jsonTextDepth: the nesting of a JSON text counted without parsing it (what decides whether agent
// output may be parsed at all) agrees with the depth of the parsed value, ignores brackets inside
// strings (escaped quotes included), and measures any depth in linear time.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonTextDepth, valueShape } from "../../interpreter/limits";

describe("jsonTextDepth", () => {
  it("counts arrays and objects, not brackets inside strings", () => {
    expect(jsonTextDepth("1")).toBe(0);
    expect(jsonTextDepth("[]")).toBe(1);
    expect(jsonTextDepth(`{"a": [1, {"b": []}]}`)).toBe(4);
    expect(jsonTextDepth(`["[[[{{{", "\\"[[[", "\\\\", []]`)).toBe(2);
    expect(jsonTextDepth(`"[[[["`)).toBe(0);
  });

  it("measures text that is not JSON without failing: unclosed, unbalanced, unterminated", () => {
    expect(jsonTextDepth("[[[x")).toBe(3);
    expect(jsonTextDepth("]]][[")).toBe(2);
    expect(jsonTextDepth(`["[[[`)).toBe(1);
  });

  it("measures 10,000,000 levels", () => {
    expect(jsonTextDepth("[".repeat(10_000_000))).toBe(10_000_000);
  });

  it("property: the depth of JSON.stringify(v) is the depth of v", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (v) => {
        expect(jsonTextDepth(JSON.stringify(v))).toBe(valueShape(v).depth);
      }),
      { seed: 31, numRuns: 500 },
    );
  });
});
