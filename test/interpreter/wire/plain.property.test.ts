// wireToPlain (wire/encode.ts) against a plain reference conversion, over random wire values:
// the same data, keys in the same order, `undefined` values left out, `__proto__` kept as an own
// key, and every object without a prototype.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wireToPlain } from "../../../interpreter/wire/encode";
import type { Wire } from "../../../interpreter/wire/wire";
import { PyFloat } from "../../../stdlib/values/value";

/** An object with these own keys in order, `__proto__` as a data property. */
function objectOf(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries)
    Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
  return out;
}

const key = fc.constantFrom("a", "b", "c", "__proto__", "constructor", "toString", "1");
const { wire } = fc.letrec<{ wire: unknown }>((tie) => ({
  wire: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(null, true, "x", 0, -7),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => new PyFloat(d)),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    fc.array(tie("wire"), { maxLength: 4 }),
    fc
      .uniqueArray(fc.tuple(key, fc.option(tie("wire"), { nil: undefined, freq: 4 })), {
        selector: (e) => e[0],
        maxLength: 5,
      })
      .map(objectOf),
  ),
}));

/** What wireToPlain must give, written the obvious way. */
function reference(v: unknown, asNumber: boolean): unknown {
  if (v === undefined || v === null) return null;
  if (v instanceof PyFloat) return v.v;
  if (typeof v === "bigint") return asNumber ? Number(v) : v;
  if (Array.isArray(v)) return v.map((x) => reference(x, asNumber));
  if (typeof v === "object") {
    const out: Record<string, unknown> = Object.create(null);
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = reference(x, asNumber);
    }
    return out;
  }
  return v;
}

/** The value as nested entries, so that key order and prototypes are compared too. */
function layout(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(layout);
  if (v !== null && typeof v === "object")
    return {
      proto: Object.getPrototypeOf(v),
      entries: Object.keys(v).map((k) => [k, layout((v as Record<string, unknown>)[k])]),
    };
  return v;
}

describe("wireToPlain", () => {
  it("gives the reference conversion: data, key order, no prototypes, `undefined` left out", () => {
    fc.assert(
      fc.property(wire, fc.boolean(), (v, asNumber) => {
        const got = wireToPlain(v as Wire, { bigints: asNumber ? "number" : "keep" });
        expect(layout(got)).toEqual(layout(reference(v, asNumber)));
      }),
      { numRuns: 2000 },
    );
  });
});
