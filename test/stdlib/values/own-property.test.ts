// Writing data keys onto plain objects: `setOwnProperty` makes `__proto__` an own field as
// JSON.parse does, and `withFields` is `{ ...base, ...extra }` (same keys, same order, the later
// value in the earlier place) built without the spread, `__proto__` staying an own field.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { setOwnProperty, withFields } from "../../../stdlib/values/own-property";

const key = fc.oneof(
  fc.constantFrom("__proto__", "status", "violations", "constructor", "0", "1"),
  fc.string(),
);
const plain = fc.dictionary(key, fc.jsonValue(), { maxKeys: 8 });

/** A plain object with these entries, `__proto__` as an own key. */
function objectOf(entries: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(entries)) as Record<string, unknown>;
}

describe("withFields", () => {
  it("is the spread of both objects: the same keys in the same order and values (fast-check)", () => {
    fc.assert(
      fc.property(plain, plain, (a, b) => {
        const base = objectOf(a);
        const extra = objectOf(b);
        const out = withFields(base, extra);
        const spread = { ...base, ...extra };
        expect(Object.keys(out)).toEqual(Object.keys(spread));
        expect(JSON.stringify(out)).toBe(JSON.stringify(spread));
        expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
      }),
    );
  });

  it("keeps `__proto__` an own field and leaves both inputs as they were", () => {
    const base = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const out = withFields(base, { b: 2 }) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(["__proto__", "a", "b"]);
    expect(out.polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(base)).toEqual(["__proto__", "a"]);
  });
});

describe("setOwnProperty", () => {
  it("writes `__proto__` as an own enumerable field, not the prototype", () => {
    const o: Record<string, unknown> = {};
    setOwnProperty(o, "__proto__", { x: 1 });
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(JSON.stringify(o)).toBe('{"__proto__":{"x":1}}');
  });
});
