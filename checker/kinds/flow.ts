// A sub-flow step (`flow: <name>`): one attempt; its result is its output contract's record, or
// unknown without one.
import { ANY } from "../../stdlib/types/type";
import { outputContractType, stepOutputContract } from "./shared";
import type { CheckerKind } from "./types";

export const FLOW_KIND: CheckerKind = {
  ownKeys: [],
  notOffered: [],
  requiredKeys: null,
  exclusiveKeys: null,
  memberList: null,
  expressions: [],
  resultType: (step, records) => outputContractType(step, records, ANY),
  outputContract: stepOutputContract,
  retries: { fixed: 1 },
  irPart: null,
  stratumcOnly: null,
};
