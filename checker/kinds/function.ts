// A function step (`function: <name>` naming a function whose mode is not gate): its result is the
// function's output contract, its attempts the function's `retries`.

import type { RecordType } from "../../stdlib/types/type";
import { ANY, recordOf } from "../../stdlib/types/type";
import type { FunctionDecl } from "../model/types";
import { stepOutputContract } from "./shared";
import type { CheckerKind, Records } from "./types";

/** The record of a function's output contract, or null (gate, missing, invalid, undefined). */
export function functionOutputRecord(fn: FunctionDecl, records: Records): RecordType | null {
  if (fn.mode === "gate") return null;
  const output = fn.string("output");
  return output === null ? null : (records.get(output.value) ?? null);
}

export const FUNCTION_KIND: CheckerKind = {
  ownKeys: [],
  notOffered: [],
  requiredKeys: null,
  exclusiveKeys: null,
  memberList: null,
  expressions: [],
  resultType(step, records) {
    const record = step.fn === null ? null : functionOutputRecord(step.fn, records);
    return record === null ? ANY : recordOf(record);
  },
  outputContract: stepOutputContract,
  retries: { from: "function" },
  irPart: null,
  stratumcOnly: null,
};
