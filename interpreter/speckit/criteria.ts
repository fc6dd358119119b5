// Acceptance criteria → ensure expressions (docs/reference/runtime.md §19.3). The first matching rule wins; a
// criterion no rule matches is a free-form "judgment" criterion that goes into the intent. The
// texts are inserted as the reference inserts them: the needle gets its `"` escaped, the path is
// used as is.
import { NOT_S, pyStrip, S, WORD_END, WORD_START } from "./python-text";

const FILE_EXISTS = new RegExp(`^file${S}+(${NOT_S}+)${S}+exists?$`, "iu");
const FILE_CONTAINS = new RegExp(
  `^file${S}+(${NOT_S}+)${S}+contains?${S}+(?:"([^"]+)"|'([^']+)'|(${NOT_S}+))$`,
  "iu",
);
const TESTS_PASS = new RegExp(`${WORD_START}tests?${WORD_END}.*${WORD_START}pass`, "iu");
const LINT_CLEAN = /(no lint errors?|lint (passes?|clean))/iu;

const TESTS_PASS_ENSURE = "result.tests_pass == True";
const LINT_CLEAN_ENSURE = "result.lint_clean == True";

/** The ensure expression of one criterion, or null for a free-form criterion. */
export function criterionToEnsure(criterion: string): string | null {
  const t = pyStrip(criterion);
  const exists = FILE_EXISTS.exec(t);
  if (exists) return `file_exists("${exists[1]}")`;
  const contains = FILE_CONTAINS.exec(t);
  if (contains) {
    const needle = contains[2] ?? contains[3] ?? contains[4] ?? "";
    return `file_contains("${contains[1]}", "${needle.replaceAll('"', '\\"')}")`;
  }
  if (TESTS_PASS.test(t)) return TESTS_PASS_ENSURE;
  if (LINT_CLEAN.test(t)) return LINT_CLEAN_ENSURE;
  return null;
}

export interface CompiledCriteria {
  /** Compiled expressions in criteria order (without the final `result.done == True`). */
  readonly ensures: readonly string[];
  /** Free-form criteria in order. */
  readonly judgment: readonly string[];
  /** Some ensure mentions `tests_pass` / `lint_clean`: the step's output schema requires it. */
  readonly needsTestsPass: boolean;
  readonly needsLintClean: boolean;
}

export function compileCriteria(criteria: readonly string[]): CompiledCriteria {
  const ensures: string[] = [];
  const judgment: string[] = [];
  for (const criterion of criteria) {
    const ensure = criterionToEnsure(criterion);
    if (ensure === null) judgment.push(criterion);
    else ensures.push(ensure);
  }
  return {
    ensures,
    judgment,
    // As the reference: any ensure text containing the word counts (a needle included).
    needsTestsPass: ensures.some((e) => e.includes("tests_pass")),
    needsLintClean: ensures.some((e) => e.includes("lint_clean")),
  };
}
