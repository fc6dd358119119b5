// An iteration result's fingerprint (docs/reference/runtime.md §9.2) is the SHA-256 of its
// canonical JSON, however often and in whatever order results are reported: digests of short texts
// are remembered, and a remembered digest must be the one hashing the text again gives.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resultFingerprint } from "../../../interpreter/flow/iterations-rules";
import { sha256Hex } from "../../../interpreter/flow/sha256";
import { fromJsonValue } from "../../../stdlib/index";
import { canonicalJson } from "../../../stdlib/values/json";

const digestOf = (plain: unknown) => sha256Hex(canonicalJson(fromJsonValue(plain)));

describe("resultFingerprint", () => {
  it("is the digest of the canonical JSON for results reported again and again, in any order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 120 }),
        (results, order) => {
          for (const i of [...results.keys(), ...order]) {
            const plain = results[i % results.length];
            expect(resultFingerprint(fromJsonValue(plain))).toBe(digestOf(plain));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("stays right past the number of digests it remembers, and for long texts", () => {
    const many = Array.from({ length: 700 }, (_, i) => ({ i, text: "x".repeat(i % 7) }));
    for (const round of [0, 1]) {
      for (const plain of round === 0 ? many : [...many].reverse()) {
        expect(resultFingerprint(fromJsonValue(plain))).toBe(digestOf(plain));
      }
    }
    const long = { text: "y".repeat(5000) };
    expect(resultFingerprint(fromJsonValue(long))).toBe(digestOf(long));
    expect(resultFingerprint(fromJsonValue(long))).toBe(digestOf(long));
    expect(resultFingerprint(fromJsonValue({ text: "y".repeat(4999) }))).not.toBe(digestOf(long));
  });
});
