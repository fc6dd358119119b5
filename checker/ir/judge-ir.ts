// The IR of a judge step's `judge` block (docs/reference/language.md §11.3): the predicates and the
// budget as written (stratum_judge compares the caller's copy with them), the stakes defaulted.

import type { JsonObject, JsonValue } from "../base/json";
import type { StepDecl } from "../model/types";
import { DEFAULT_JUDGE_STAKES, JUDGE_STAKES } from "../schema/spec-schema-judge";
import { toJson } from "../yaml/to-json";
import type { JudgeIR } from "./types";

function isObject(v: JsonValue | undefined): v is JsonObject {
  return v !== null && v !== undefined && typeof v === "object" && !Array.isArray(v);
}

/** Null only for a spec with errors (no IR is built for one). */
export function judgeIR(step: StepDecl): JudgeIR | null {
  const field = step.map("judge");
  if (field === null) return null;
  const judge = toJson(field.value);
  if (!isObject(judge)) return null;
  const predicates = judge.predicates;
  if (!Array.isArray(predicates)) return null;
  const stakes = judge.stakes ?? DEFAULT_JUDGE_STAKES;
  const known = JUDGE_STAKES.find((s) => s === stakes);
  if (known === undefined) return null;
  const budget = judge.budget;
  return {
    predicates: predicates.filter(isObject),
    stakes: known,
    budget: isObject(budget) ? budget : null,
  };
}
