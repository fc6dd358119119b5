// The validation.jsonl cases that expect expression or reference diagnostics (families expr-syntax,
// expr-name, expr-type, reference), replayed through the full pipeline and compared with their
// expected (family, path, line) triples as test/conformance/recorded/README.md §1.1 describes.
import { describe, expect, it } from "vitest";
import { familyOf } from "../../../checker/catalogue";
import { checkSpec } from "../../../checker/check-spec";
import {
  compareWithExpect,
  listDiagnostics,
  loadValidationCases,
  RETIRED_DIVERGENCES,
} from "../../support/spec-conformance";

const FAMILIES: ReadonlySet<string> = new Set(["expr-syntax", "expr-name", "expr-type", "reference"]);

// A case whose expected error came from a retired divergence is checked against the reference's own
// result by test/conformance/validation.test.ts instead.
const CASES = loadValidationCases().filter(
  (c) =>
    !RETIRED_DIVERGENCES.has(c.name) &&
    [...c.expect.errors, ...(c.expect.warnings ?? [])].some((e) => FAMILIES.has(e.code_family)),
);

describe("validation cases of the expression and reference families", () => {
  it("selects the recorded cases", () => {
    expect(CASES).toHaveLength(34);
  });

  for (const c of CASES) {
    it(c.name, () => {
      const result = checkSpec(c.yaml);
      const problems = compareWithExpect(c, result, familyOf);
      if (problems.length > 0) {
        expect.fail(`${c.name}: ${c.description}\n${problems.join("\n")}\n${listDiagnostics(result)}`);
      }
    });
  }
});
