// Expression and reference phase (§9.5.5). STUB: filled by the expression-phase work.
import type { SpecModel } from "../model/types";
import type { Reporter } from "../report";
import type { RuleInfo } from "../rule";
import type { ExpressionTable } from "./types";

/** SPEC-REF-UNKNOWN-STEP, SPEC-REF-UNDECLARED-INPUT, SPEC-REF-UNKNOWN-FIELD, SPEC-REF-MAY-NOT-HAVE-RUN. */
export const REFERENCE_RULES: readonly RuleInfo[] = [];

export function checkSpecExpressions(_model: SpecModel, _reporter: Reporter): ExpressionTable {
  throw new Error("checkSpecExpressions: not implemented yet");
}
