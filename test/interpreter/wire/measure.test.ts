// measureWire stands in for encodeWire where a store keeps values instead of texts (the memory
// store): it must refuse exactly what the encoder refuses, and its length must be the text's
// where the estimate claims to be exact.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeWire, WireDepthError } from "../../../interpreter/wire/encode";
import { measureWire } from "../../../interpreter/wire/measure";
import type { Wire } from "../../../interpreter/wire/wire";
import { makeDict } from "../../../stdlib/values/dict";
import type { PyValue } from "../../../stdlib/values/value";
import { arbitraryUserData } from "../support/arbitrary-state";

/** Strings that JSON writes without an escape (printable ASCII but `"` and `\`). */
const plainString = fc.stringMatching(/^[ !#-[\]-~]{0,8}$/);

/** User data whose scalars are all such strings. */
const { py: plainData } = fc.letrec<{ py: PyValue }>((tie) => ({
  py: fc.oneof(
    { depthSize: "small" },
    plainString,
    fc.array(tie("py"), { maxLength: 3 }),
    fc
      .uniqueArray(fc.tuple(plainString, tie("py")), { maxLength: 3, selector: ([k]) => k })
      .map((entries) => makeDict(entries)),
  ),
}));

/** Such values in every container kind the state holds: user data, Maps, plain objects, arrays. */
const { value: plainValue } = fc.letrec<{ value: Wire }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    plainData,
    fc.array(tie("value"), { maxLength: 3 }),
    fc
      .uniqueArray(fc.tuple(plainString, tie("value")), { maxLength: 3, selector: ([k]) => k })
      .map((entries) => new Map(entries)),
    fc.dictionary(fc.constantFrom("a", "bb", "status"), tie("value"), { maxKeys: 3 }),
  ),
}));

/** `value` inside `levels` more arrays. */
function wrapped(value: Wire, levels: number): Wire {
  let v = value;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

function refusal(f: () => unknown): string | null {
  try {
    f();
    return null;
  } catch (e) {
    return e instanceof WireDepthError ? `depth ${e.limit}` : String(e);
  }
}

describe("measureWire", () => {
  it("is the one-line text's length for values of strings that need no escape", () => {
    fc.assert(
      fc.property(plainValue, (v) => {
        expect(measureWire(v, 1000)).toBe(encodeWire(v).length);
      }),
    );
  });

  it("refuses exactly the values encodeWire refuses at the same depth limit", () => {
    fc.assert(
      fc.property(
        arbitraryUserData,
        fc.nat({ max: 8 }),
        fc.integer({ min: 1, max: 8 }),
        (v, levels, limit) => {
          const value = wrapped(v, levels);
          expect(refusal(() => measureWire(value, limit))).toBe(
            refusal(() => encodeWire(value, { maxDepth: limit })),
          );
        },
      ),
    );
  });

  it("leaves out keys whose value is undefined, as the encoder does", () => {
    const v: Wire = { a: "x", b: undefined };
    expect(measureWire(v, 10)).toBe(encodeWire(v).length);
    expect(measureWire({ b: undefined }, 10)).toBe(2);
  });

  it("refuses what is not a wire value", () => {
    expect(() => measureWire(new Date(0) as unknown as Wire, 10)).toThrow(TypeError);
  });
});
