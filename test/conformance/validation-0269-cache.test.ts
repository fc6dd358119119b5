// The `cache` cases of recorded/validation-0269-keys.jsonl (the 0.2.69 reference's stratum_validate
// on specs written for the result cache): ours must agree on `valid`, and report the reference's
// error at the reference's path with the reference's message. The reference stops at its first
// error; these specs have one.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validate } from "../../interpreter/flow/validate";

interface ReferenceAnswer {
  readonly valid: boolean;
  readonly errors: readonly { readonly path?: string; readonly message: string }[];
}

interface KeyCase {
  readonly name: string;
  readonly description: string;
  readonly yaml: string;
  readonly reference_0269: ReferenceAnswer;
}

const CASES = readFileSync(new URL("recorded/validation-0269-keys.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as KeyCase)
  .filter((c) => c.name.startsWith("cache_"));

interface OurAnswer {
  readonly valid: boolean;
  readonly errors: readonly { readonly code: string; readonly path: string; readonly message: string }[];
}

/**
 * Errors ours adds beside the reference's first one: our static types of expressions (D3 in
 * test/conformance/recorded/README.md §3) see that `accumulate: result.v` gives a string, not a list.
 */
const EXTRA: Readonly<Record<string, readonly string[]>> = {
  cache_accumulate: ["EXPR-ACCUMULATE-NOT-LIST"],
};

/** Our message differs here: 0.1 has no `cache`, and ours names the unknown key in our words. */
const OWN_MESSAGE: ReadonlySet<string> = new Set(["cache_v01"]);

describe("the cache cases of validation-0269-keys.jsonl", () => {
  it("holds the 18 recorded cache cases", () => {
    expect(CASES).toHaveLength(18);
  });

  for (const c of CASES) {
    it(`${c.name}: ${c.description}`, () => {
      const ours = validate({ spec: c.yaml }) as unknown as OurAnswer;
      expect(ours.valid, JSON.stringify(ours.errors)).toBe(c.reference_0269.valid);
      if (c.reference_0269.valid) return;
      const [first] = c.reference_0269.errors;
      const at = ours.errors.filter((e) => e.path === first?.path);
      expect(at, JSON.stringify(ours.errors)).toHaveLength(1);
      if (!OWN_MESSAGE.has(c.name)) expect(at[0]?.message).toBe(first?.message);
      const others = ours.errors.filter((e) => e.path !== first?.path).map((e) => e.code);
      expect(others).toEqual(EXTRA[c.name] ?? []);
    });
  }
});
