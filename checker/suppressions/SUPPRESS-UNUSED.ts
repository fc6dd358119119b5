// SUPPRESS-UNUSED: a suppression comment that suppresses nothing.
import { defineRule } from "../rule";

export const SUPPRESS_UNUSED = defineRule({
  code: "SUPPRESS-UNUSED",
  severity: "warning",
  family: "suppression",
  errorType: "ir_semantic_error",
  title: "Suppression comment that suppresses nothing",
  doc:
    "No diagnostic with this code starts on the line the suppression applies to (its own line for a " +
    "comment after content, otherwise the next line that is not a comment). The problem was fixed or " +
    "the comment is on the wrong line: remove the code from the comment, or move the comment.",
  example: {
    bad: "# stratum-ignore[SPEC-STEP-UNREACHABLE]: legacy\n\n- id: step_a",
    good: "# stratum-ignore[SPEC-STEP-UNREACHABLE]: legacy\n- id: step_a",
  },
  fix: "Deletes the whole suppression comment (its line, when it stands alone; else the comment and the blanks before it), offered only when none of the codes it names suppresses anything.",
  message: (code: string, line: number) =>
    `Unused suppression: no '${code}' diagnostic starts on line ${line}`,
});
