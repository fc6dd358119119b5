// The score_expr cases of test/conformance/recorded/validation-0269-keys.jsonl (recorded from the
// 0.2.69 reference; 0.2.50 answers the same): our stratum_validate must agree on `valid` and, where
// the reference rejects, report its path with its error_type. The cases where we are stricter
// (DIV-EXPR-STATIC: the reference does not compile score_expr or exit_criterion when it checks)
// are listed with the code we report instead.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validate } from "../../interpreter/flow/validate";

interface RecordedError {
  readonly error_type: string;
  readonly path?: string;
  readonly message: string;
}

interface KeyCase {
  readonly name: string;
  readonly description: string;
  readonly yaml: string;
  readonly reference_0269: { readonly valid: boolean; readonly errors: readonly RecordedError[] };
  readonly reference_0250: { readonly valid: boolean; readonly errors: readonly RecordedError[] };
}

interface OurError {
  readonly code: string;
  readonly error_type: string;
  readonly path: string;
  readonly message: string;
}

const CASES = readFileSync(new URL("recorded/validation-0269-keys.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as KeyCase)
  .filter((c) => c.name.startsWith("score_expr_"));

/** Reference-valid specs we reject (DIV-EXPR-STATIC), with the code and path we report. */
const STRICTER: Readonly<Record<string, { readonly code: string; readonly path: string }>> = {
  score_expr_syntax_error: { code: "EXPR-SYNTAX", path: "flows.main.steps.a.score_expr" },
  score_expr_unknown_name: { code: "EXPR-UNKNOWN-NAME", path: "flows.main.steps.a.score_expr" },
  score_expr_exit_names_without_score: {
    code: "EXPR-NAME-UNAVAILABLE",
    path: "flows.main.steps.a.exit_criterion",
  },
};

/** The reference path in our notation: list items by index as `.0`, also where it writes `[0]`. */
function ourPath(path: string): string {
  return path.replace(/\[(\d+)\]/g, ".$1");
}

function errorsOf(yaml: string): { valid: boolean; errors: OurError[] } {
  return validate({ spec: yaml }) as unknown as { valid: boolean; errors: OurError[] };
}

describe("score_expr cases of validation-0269-keys.jsonl", () => {
  it("holds the 11 recorded score_expr cases, 0.2.50 answering as 0.2.69", () => {
    expect(CASES).toHaveLength(11);
    for (const c of CASES) expect(c.reference_0250, c.name).toEqual(c.reference_0269);
  });

  for (const c of CASES) {
    it(`${c.name}: ${c.description}`, () => {
      const ours = errorsOf(c.yaml);
      const stricter = STRICTER[c.name];
      if (stricter !== undefined) {
        expect(c.reference_0269.valid).toBe(true);
        expect(ours.valid).toBe(false);
        expect(ours.errors.map((e) => [e.code, e.path])).toEqual([[stricter.code, stricter.path]]);
        return;
      }
      expect(ours.valid, JSON.stringify(ours.errors)).toBe(c.reference_0269.valid);
      for (const expected of c.reference_0269.errors) {
        const path = ourPath(expected.path ?? "");
        const same = ours.errors.find((e) => e.path === path);
        expect(same, `${path} in ${JSON.stringify(ours.errors)}`).toBeDefined();
        expect(same?.error_type).toBe(expected.error_type);
      }
    });
  }

  it("reports the reference's message for the rules it shares", () => {
    const shared = CASES.filter((c) => !c.reference_0269.valid && c.name !== "score_expr_dunder");
    for (const c of shared) {
      const [expected] = c.reference_0269.errors;
      const ours = errorsOf(c.yaml).errors.find((e) => e.path === ourPath(expected?.path ?? ""));
      expect(ours?.message, c.name).toBe(expected?.message);
    }
  });
});
