// The contract check (runtime.md §4.2, language.md §3.2).
import type { CheckedSpec, ContractIR } from "../../checker/ir/types";
import type { PyValue } from "../../stdlib/values/value";

/** Violations `contract violation: …` of `result` against `contract`, in declaration order, depth first. */
export function checkContract(result: PyValue, contract: ContractIR, spec: CheckedSpec): string[] {
  void result;
  void contract;
  void spec;
  throw new Error("checkContract: not implemented yet");
}
