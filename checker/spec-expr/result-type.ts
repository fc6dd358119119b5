// The result type R(s) of a step (docs/reference/language.md §10.12.2), before the accumulator fields: the record
// of its output contract (function: the function's `output`; inline, decompose and sub-flow:
// `output_contract`; parallel_dispatch: the aggregate record of its tasks)
// extended by its output_schema properties; `dict[str, any]` for an inline step without a contract;
// `none` for a gate; `any` wherever the contract is unknown (undefined, invalid), so nothing cascades.
import { ANY, type RecordType, recordOf, type Type } from "../../stdlib/types/type";
import { functionOutputRecord } from "../kinds/function";
import { CHECKER_KINDS } from "../kinds/index";
import type { Records } from "../kinds/types";
import type { FunctionDecl, StepDecl } from "../model/types";
import { outputSchemaProperties, type SchemaProperties } from "./output-schema";
import { extendRecord } from "./records";

export type { Records } from "../kinds/types";

/** R(s) before the output_schema extension: the kind's (checker/kinds/<kind>.ts); `any` for an unknown kind. */
function contractResultType(step: StepDecl, records: Records): Type {
  return step.kind === null ? ANY : CHECKER_KINDS[step.kind].resultType(step, records);
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
