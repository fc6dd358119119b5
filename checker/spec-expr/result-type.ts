// The result type R(s) of a step (docs/reference/language.md §10.12.2), before the accumulator fields: the record
// of its output contract (function: the function's `output`; inline, decompose and sub-flow:
// `output_contract`; parallel_dispatch: the aggregate record of its tasks)
// extended by its output_schema properties; `dict[str, any]` for an inline step without a contract;
// `none` for a gate; `any` wherever the contract is unknown (undefined, invalid), so nothing cascades.
import { ANY, dictOf, listOf, NONE, RecordType, recordOf, STR, type Type } from "../../stdlib/types/type";
import type { FunctionDecl, StepDecl } from "../model/types";
import { outputSchemaProperties, type SchemaProperties } from "./output-schema";
import { extendRecord } from "./records";

export type Records = ReadonlyMap<string, RecordType>;

/** The record of a function's output contract, or null (gate, missing, invalid, undefined). */
function functionOutputRecord(fn: FunctionDecl, records: Records): RecordType | null {
  if (fn.mode === "gate") return null;
  const output = fn.string("output");
  return output === null ? null : (records.get(output.value) ?? null);
}

/** The name a parallel_dispatch step's aggregate record has in messages and hovers. */
const PARALLEL_RESULT_NAME = "ParallelDispatchResult";

/**
 * The aggregate a parallel_dispatch step reports (docs/reference/runtime.md, parallel steps): what its
 * `ensure` sees as `result` and what `$.steps.<id>.output` is.
 */
function parallelResultRecord(): RecordType {
  const record = new RecordType(PARALLEL_RESULT_NAME);
  const list = listOf(ANY);
  record.fields.set("tasks", { type: list, optional: false, written: "array" });
  record.fields.set("merge_status", { type: STR, optional: false, written: "string" });
  record.fields.set("completed", { type: list, optional: false, written: "array" });
  record.fields.set("failed", { type: list, optional: false, written: "array" });
  record.fields.set("outcome", { type: STR, optional: false, written: "string" });
  return record;
}

/** R(s) before the output_schema extension. */
function contractResultType(step: StepDecl, records: Records): Type {
  switch (step.kind) {
    case "gate":
      return NONE;
    case "function": {
      const record = step.fn === null ? null : functionOutputRecord(step.fn, records);
      return record === null ? ANY : recordOf(record);
    }
    case "parallel_dispatch":
      return recordOf(parallelResultRecord());
    case "inline":
    case "decompose":
    case "quorum": // the first result of the winning group: the output contract's type
    case "race": // the winning candidate's result
    case "flow": {
      const withoutContract = step.kind === "flow" ? ANY : dictOf(STR, ANY);
      if (step.entry("output_contract") === undefined) return withoutContract;
      const name = step.string("output_contract");
      const record = name === null ? undefined : records.get(name.value);
      return record === undefined ? ANY : recordOf(record);
    }
    case "debate": {
      // The synthesis's result (docs/design/concurrency-constructs.md §5).
      const synthesis = step.map("synthesis")?.value;
      const name = synthesis?.get("output_contract")?.value;
      if (name === undefined) return dictOf(STR, ANY);
      const record =
        name.kind === "scalar" && typeof name.value === "string" ? records.get(name.value) : undefined;
      return record === undefined ? ANY : recordOf(record);
    }
    case null:
      return ANY;
  }
}

/** R(s): a contract record is extended by the step's own output_schema properties. */
export function stepResultType(step: StepDecl, records: Records): Type {
  const t = contractResultType(step, records);
  return t.k === "record" ? extended(t.record, outputSchemaProperties(step)) : t;
}

/** The result type seen by a function's own ensure, given the properties common to its using steps. */
export function functionResultType(fn: FunctionDecl, records: Records, common: SchemaProperties): Type {
  const record = functionOutputRecord(fn, records);
  return record === null ? ANY : extended(record, common);
}

function extended(record: RecordType, properties: SchemaProperties): Type {
  return recordOf(extendRecord(record, properties));
}
