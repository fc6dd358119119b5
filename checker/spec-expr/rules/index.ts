// The reference rules of the expression phase, in catalogue order (docs/language.md §9.5.5).
import type { RuleInfo } from "../../rule";
import { SPEC_REF_MAY_NOT_HAVE_RUN } from "./ref-may-not-have-run";
import { SPEC_REF_UNDECLARED_INPUT } from "./ref-undeclared-input";
import { SPEC_REF_UNKNOWN_FIELD } from "./ref-unknown-field";
import { SPEC_REF_UNKNOWN_STEP } from "./ref-unknown-step";

export {
  SPEC_REF_MAY_NOT_HAVE_RUN,
  SPEC_REF_UNDECLARED_INPUT,
  SPEC_REF_UNKNOWN_FIELD,
  SPEC_REF_UNKNOWN_STEP,
};

export const REFERENCE_RULES: readonly RuleInfo[] = [
  SPEC_REF_UNKNOWN_STEP,
  SPEC_REF_UNDECLARED_INPUT,
  SPEC_REF_UNKNOWN_FIELD,
  SPEC_REF_MAY_NOT_HAVE_RUN,
];
