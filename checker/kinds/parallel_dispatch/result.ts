// The aggregate a parallel_dispatch step reports (docs/reference/runtime.md, parallel steps): what its
// `ensure` sees as `result` and what `$.steps.<id>.output` is.
import { ANY, listOf, RecordType, STR } from "../../../stdlib/types/type";

/** The name a parallel_dispatch step's aggregate record has in messages and hovers. */
const PARALLEL_RESULT_NAME = "ParallelDispatchResult";

export function parallelResultRecord(): RecordType {
  const record = new RecordType(PARALLEL_RESULT_NAME);
  const list = listOf(ANY);
  record.fields.set("tasks", { type: list, optional: false, written: "array" });
  record.fields.set("merge_status", { type: STR, optional: false, written: "string" });
  record.fields.set("completed", { type: list, optional: false, written: "array" });
  record.fields.set("failed", { type: list, optional: false, written: "array" });
  record.fields.set("outcome", { type: STR, optional: false, written: "string" });
  return record;
}
