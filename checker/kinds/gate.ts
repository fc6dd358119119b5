// A gate step (`function: <name>` naming a function with `mode: gate`): it produces no result.
import { NONE } from "../../stdlib/types/type";
import { stepOutputContract } from "./shared";
import type { CheckerKind } from "./types";

export const GATE_KIND: CheckerKind = {
  ownKeys: [],
  notOffered: [],
  requiredKeys: null,
  exclusiveKeys: null,
  memberList: null,
  expressions: [],
  resultType: () => NONE,
  outputContract: stepOutputContract,
  retries: { from: "function" },
  irPart: null,
  stratumcOnly: null,
};
