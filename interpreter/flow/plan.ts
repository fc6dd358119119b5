// `stratum_plan` (docs/reference/runtime.md §16.4): validate, create the flow, warn about inputs that do not match
// the flow's declared `input`, dispatch + policy loop; the completion payload when nothing is left
// to do (DIV-PLAN-NULL). A dispatch failure throws ExecutionFailure: nothing is created (DIV-ATOMIC).

import type { JsonValue } from "../../checker/base/json";
import type { FlowIR } from "../../checker/ir/types";
import { dictGetStr } from "../../stdlib/values/dict";
import { PyDict, PyFloat, type PyValue, typeName } from "../../stdlib/values/value";
import type { PlanArgs } from "../api";
import { executionError } from "../base/tool-errors";
import { type JsonKind, jsonKind } from "../checks/json-kinds";
import type { Response } from "../wire/wire";
import { newRun } from "./new-flow";
import { advance } from "./step-done";
import type { Tx } from "./tx";
import { diagnosticWire } from "./validate";

export function plan(tx: Tx, args: PlanArgs): Response {
  const checked = tx.check(args.spec);
  const first = checked.errors[0];
  if (first !== undefined) {
    return { status: "error", ...diagnosticWire(first), errors: checked.errors.map(diagnosticWire) };
  }
  const spec = checked.ir;
  const flow = spec?.flows.get(args.flow);
  if (spec === null || flow === undefined) return executionError(`Flow '${args.flow}' not found in spec`);
  const inputs = args.inputs ?? new PyDict();
  // Our choice where the spec is silent: the MCP layer only lets objects through; a programmatic
  // caller passing anything else gets an execution error rather than a flow without inputs.
  if (!(inputs instanceof PyDict)) return executionError(`inputs must be an object, got ${typeName(inputs)}`);
  for (const warning of inputWarnings(flow, inputs)) tx.warn(warning);
  const run = newRun(
    spec,
    flow,
    {
      flowId: tx.ids.newFlowId(),
      rawSpec: args.spec,
      inputs,
      cwd: tx.serverCwd,
      parentFlowId: null,
      parentStepId: null,
    },
    tx.clock,
  );
  tx.create(run);
  return advance(tx, run);
}

// What each declared type accepts (docs/reference/language.md §3.2). A Map: the type is user text.
const ACCEPTS: ReadonlyMap<string, (kind: JsonKind, v: PyValue) => boolean> = new Map([
  ["string", (k: JsonKind) => k === "string"],
  ["number", (k: JsonKind) => k === "integer" || k === "number"],
  [
    "integer",
    (k: JsonKind, v: PyValue) => k === "integer" || (v instanceof PyFloat && Number.isInteger(v.v)),
  ],
  ["boolean", (k: JsonKind) => k === "boolean"],
  ["array", (k: JsonKind) => k === "array"],
  ["object", (k: JsonKind) => k === "object"],
]);

/** `input '<name>' is missing` / `input '<name>': expected <type>, got <json type>`, in declaration order. */
function inputWarnings(flow: FlowIR, inputs: PyDict): string[] {
  const out: string[] = [];
  for (const name of flow.inputNames) {
    const value = dictGetStr(inputs, name);
    if (value === undefined) {
      out.push(`input '${name}' is missing`);
      continue;
    }
    const type = declaredType(flow.input[name]);
    const accepts = type === null ? undefined : ACCEPTS.get(type);
    if (type === null || accepts === undefined) continue; // no type, or one we do not check
    const kind = jsonKind(value);
    if (!accepts(kind, value)) out.push(`input '${name}': expected ${type}, got ${kind}`);
  }
  return out;
}

function declaredType(decl: JsonValue | undefined): string | null {
  if (decl === null || decl === undefined || typeof decl !== "object" || Array.isArray(decl)) return null;
  const type = Object.hasOwn(decl, "type") ? (decl as { readonly [key: string]: JsonValue }).type : undefined;
  return typeof type === "string" ? type : null;
}
