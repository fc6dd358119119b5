// Resolving a step's `inputs` at dispatch (docs/reference/runtime.md §3.3): literals pass through, `$` references
// are split on `.` exactly as the reference does and navigated into the stored value. The first
// failure aborts the tool call with its message (ExecutionFailure, docs/reference/runtime.md §15).
import type { StepIR } from "../../checker/ir/types";
import { dictGetStr, dictKeys, dictSet } from "../../stdlib/values/dict";
import { repr, strRepr } from "../../stdlib/values/repr";
import { compareCodePoints } from "../../stdlib/values/strings";
import { PyDict, PyTuple, type PyValue } from "../../stdlib/values/value";
import { ExecutionFailure } from "../base/tool-errors";
import type { FlowRun } from "./run";

const DIGITS = /^[0-9]+$/;

/** The resolved inputs of `step`, in declaration order. Throws ExecutionFailure. */
export function resolveInputs(run: FlowRun, step: StepIR): PyDict {
  const out = new PyDict();
  for (const input of step.inputs) {
    try {
      dictSet(out, input.name, resolveValue(run, input.raw));
    } catch (e) {
      if (!(e instanceof ExecutionFailure)) throw e;
      throw new ExecutionFailure(e.message, {
        flow_name: run.state.flow_name,
        step_id: step.id,
        input: input.name,
      });
    }
  }
  return out;
}

/** One input value as written: a literal, or a `$` reference into the flow's inputs or outputs. */
export function resolveValue(run: FlowRun, raw: string): PyValue {
  if (!raw.startsWith("$")) return raw;
  const parts = raw.slice(2).split(".");
  const [first, second] = parts;
  if (parts.length === 1 && first === "") throw new ExecutionFailure(`Empty $ reference: ${strRepr(raw)}`);
  if (first === "input") {
    if (second === undefined) throw new ExecutionFailure(`$.input requires a field name: ${strRepr(raw)}`);
    const value = dictGetStr(run.state.inputs, second);
    if (value === undefined) throw new ExecutionFailure(`$.input.${second} not found in flow inputs`);
    return navigate(value, parts.slice(2), `$.input.${second}`);
  }
  if (first === "steps") {
    if (parts.length < 3 || second === undefined) {
      throw new ExecutionFailure(`$.steps requires $.steps.<id>.output: ${strRepr(raw)}`);
    }
    const value = run.state.step_outputs.get(second);
    if (value === undefined) {
      throw new ExecutionFailure(`$.steps.${second} not yet executed — check depends_on ordering`);
    }
    if (parts[2] !== "output") {
      throw new ExecutionFailure(`Expected '$.steps.${second}.output[.<field>]', got ${strRepr(raw)}`);
    }
    return navigate(value, parts.slice(3), `$.steps.${second}.output`);
  }
  throw new ExecutionFailure(`Unknown $ prefix '${first ?? ""}' in ${strRepr(raw)}`);
}

/** Navigation one part at a time (`DIV-INPUT-PATH`, `DIV-INDEX-SEGMENTS`); `base` names the root in messages. */
function navigate(value: PyValue, parts: readonly string[], base: string): PyValue {
  let v = value;
  for (const k of parts) {
    if (v === null) return null; // a skipped step's fields resolve to null
    if (v instanceof PyDict) {
      const next = dictGetStr(v, k);
      if (next === undefined) {
        const keys = dictKeys(v)
          .filter((key): key is string => typeof key === "string")
          .sort(compareCodePoints);
        throw new ExecutionFailure(`Key '${k}' not found in ${base} — available keys: ${repr(keys)}`);
      }
      v = next;
      continue;
    }
    const items = Array.isArray(v) ? (v as readonly PyValue[]) : v instanceof PyTuple ? v.items : null;
    if (items !== null && DIGITS.test(k)) {
      const index = Number(k);
      if (index >= items.length) throw new ExecutionFailure(`Index ${k} out of range in ${base}`);
      v = items[index] ?? null;
      continue;
    }
    throw new ExecutionFailure(`Attribute '${k}' not found on ${base}`);
  }
  return v;
}
