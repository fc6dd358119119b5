// A semantic rule module (docs/language.md §9.5.3–docs/language.md §9.5.4): catalogue data plus a check over the model.

import type { SpecModel } from "../model/types";
import type { Reporter } from "../report";
import type { RuleInfo } from "../rule";

export interface SemanticRule extends RuleInfo {
  check(model: SpecModel, reporter: Reporter): void;
}
