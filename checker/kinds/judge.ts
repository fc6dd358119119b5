// A judge step (`judge:`, docs/reference/language.md §11.3): the caller judges its predicates with
// stratum_judge and reports the verdict with stratum_step_done, which checks it as an inline
// step's result. The verdict's shape is the judge's, so without an output contract the result is
// a dict.
import { ANY, dictOf, STR } from "../../stdlib/types/type";
import { DEFAULT_INLINE_STEP_RETRIES } from "../schema/spec-schema";
import { outputContractType, stepOutputContract } from "./shared";
import type { CheckerKind } from "./types";

export const JUDGE_KIND: CheckerKind = {
  ownKeys: ["judge"],
  notOffered: [],
  requiredKeys: null,
  exclusiveKeys: null,
  memberList: null,
  expressions: [],
  resultType: (step, records) => outputContractType(step, records, dictOf(STR, ANY)),
  outputContract: stepOutputContract,
  retries: { from: "step", default: DEFAULT_INLINE_STEP_RETRIES },
  irPart: "judge",
  stratumcOnly: null,
};
