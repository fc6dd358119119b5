// Which flow ids a store accepts (interpreter/store/flow-id.ts): a safe file name component, as
// docs/reference/runtime.md §14.1 names flow files `<id>.json`.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertSafeFlowId, isSafeFlowId } from "../../../interpreter/store/flow-id";

/** The rule as a regular expression: 1 to 128 of [A-Za-z0-9._-], not starting with a dot. */
const RULE = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

describe("isSafeFlowId", () => {
  it.each([
    ["0b9e6c1e-5a3e-4c8f-9d2a-1f2e3d4c5b6a", true],
    ["a", true],
    ["_x.y-Z9", true],
    ["a".repeat(128), true],
    ["a".repeat(129), false],
    ["", false],
    [".hidden", false],
    ["..", false],
    ["a/b", false],
    ["a\\b", false],
    ["a b", false],
    ["a\n", false],
    ["é", false],
    ["a:b", false],
    ["a@", false],
    ["[", false],
    ["`", false],
    ["{", false],
  ])("%j is safe: %s", (id, safe) => {
    expect(isSafeFlowId(id)).toBe(safe);
  });

  it("agrees with the rule on any text, and on texts of the id alphabet and its neighbours", () => {
    const near = fc.constantFrom(..."aZz09._-/:@[`{ \n".split(""));
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 140 }), fc.string({ unit: near, maxLength: 130 })),
        (id) => {
          expect(isSafeFlowId(id)).toBe(RULE.test(id));
        },
      ),
    );
  });

  it("assertSafeFlowId throws for an unsafe id only", () => {
    expect(() => assertSafeFlowId("ok-id")).not.toThrow();
    expect(() => assertSafeFlowId("../x")).toThrow("is not a valid flow id");
  });
});
