// A quorum step's `threshold` as written (a float stays a float: 1.0 is the fraction "all runs",
// 1 the count "one run").
import { PyFloat } from "../../../stdlib/values/value";
import type { StepDecl } from "../../model/types";

export interface WrittenThreshold {
  readonly value: number;
  readonly float: boolean;
  /** The value as the spec writes it, for messages. */
  readonly text: string;
}

/** The structurally valid `threshold` of a step, or null (absent, or reported by the schema). */
export function thresholdNumber(step: StepDecl): WrittenThreshold | null {
  if (!step.valid("threshold")) return null;
  const node = step.entry("threshold")?.value;
  if (node?.kind !== "scalar") return null;
  const v = node.value;
  if (v instanceof PyFloat)
    return { value: v.v, float: true, text: Number.isInteger(v.v) ? `${v.v}.0` : String(v.v) };
  if (typeof v === "number") return { value: v, float: false, text: String(v) };
  if (typeof v === "bigint") return { value: Number(v), float: false, text: String(v) };
  return null;
}
