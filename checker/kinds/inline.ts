// An inline step (`intent:` without a function): its result is its output contract's record, or a
// dict without one.
import { ANY, dictOf, STR } from "../../stdlib/types/type";
import { DEFAULT_INLINE_STEP_RETRIES } from "../schema/spec-schema";
import { outputContractType, stepOutputContract } from "./shared";
import type { CheckerKind } from "./types";

export const INLINE_KIND: CheckerKind = {
  ownKeys: [],
  notOffered: [],
  requiredKeys: null,
  exclusiveKeys: null,
  memberList: null,
  expressions: [],
  resultType: (step, records) => outputContractType(step, records, dictOf(STR, ANY)),
  outputContract: stepOutputContract,
  retries: { from: "step", default: DEFAULT_INLINE_STEP_RETRIES },
  irPart: null,
  stratumcOnly: null,
};
