// The aggregate a pipeline step reports (docs/reference/runtime.md §4.8): what its `ensure` sees as
// `result` and what `$.steps.<id>.output` is. Unlike a parallel step's, it has no `completed` or
// `failed` lists: elements are read through `items`.
import { ANY, BOOL, dictOf, listOf, RecordType, recordOf, STR, type Type } from "../../../stdlib/types/type";

/** The name a pipeline step's aggregate record has in messages and hovers. */
const PIPELINE_RESULT_NAME = "PipelineResult";
const PIPELINE_ITEM_NAME = "PipelineItem";

const ELEMENT_STATUS: Type = { k: "str", values: ["complete", "failed", "incomplete"] };
const OUTCOME: Type = { k: "str", values: ["complete", "failed"] };

/** One element's entry of `items`; `item` is the source element (its type when known). */
function itemRecord(element: Type): RecordType {
  const record = new RecordType(PIPELINE_ITEM_NAME);
  record.fields.set("item", { type: element, optional: false });
  record.fields.set("status", { type: ELEMENT_STATUS, optional: false, written: "string" });
  record.fields.set("result", { type: ANY, optional: false });
  record.fields.set("stages", { type: listOf(ANY), optional: false, written: "array" });
  return record;
}

export function pipelineResultRecord(element: Type = ANY): RecordType {
  const record = new RecordType(PIPELINE_RESULT_NAME);
  record.fields.set("items", {
    type: listOf(recordOf(itemRecord(element))),
    optional: false,
    written: "array",
  });
  record.fields.set("require_satisfied", { type: BOOL, optional: false, written: "boolean" });
  record.fields.set("merge_status", { type: STR, optional: false, written: "string" });
  record.fields.set("tasks", { type: listOf(dictOf(STR, ANY)), optional: false, written: "array" });
  record.fields.set("outcome", { type: OUTCOME, optional: false, written: "string" });
  return record;
}
