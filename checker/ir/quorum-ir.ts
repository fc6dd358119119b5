// The IR of a quorum step's own keys (docs/reference/language.md §6.5): `runs`, the checked `agree_on` and
// `threshold` as written (default: a majority of runs), the default timeout of its run tasks.
import type { StepDecl } from "../model/types";
import { thresholdNumber } from "../rules/quorum/threshold-value";
import { DEFAULT_TASK_TIMEOUT } from "../schema/spec-schema-parallel";
import type { ExpressionIR, QuorumIR } from "./types";

/** Null only for a spec with errors (no IR is built for one). */
export function quorumIR(step: StepDecl, agreeOn: ExpressionIR | null): QuorumIR | null {
  const runs = step.integer("runs")?.value;
  if (runs === undefined || agreeOn === null) return null;
  const written = thresholdNumber(step);
  return {
    runs,
    agreeOn,
    threshold:
      written === null
        ? { value: Math.floor(runs / 2) + 1, float: false }
        : { value: written.value, float: written.float },
    taskTimeout: DEFAULT_TASK_TIMEOUT,
  };
}
