// `stratum_step_done` on a debate step (stratumc's extension, docs/reference/runtime.md §23.15). During the
// rounds it is refused: the arguments come with stratum_parallel_done. Once the rounds are over it
// is the synthesis's answer, checked as the step's result (the synthesis's output_contract, the
// step's output_schema and ensure) with `synthesis.retries` attempts; success stores it as the
// step's output and moves on, exhaustion follows the ordinary rules (retries_exhausted or on_fail).
import type { StepIR } from "../../../../checker/ir/types";
import { withFields } from "../../../../stdlib/values/own-property";
import type { PyValue } from "../../../../stdlib/values/value";
import { toolError } from "../../../base/tool-errors";
import type { Response } from "../../../wire/wire";
import { resolveInputs } from "../../inputs";
import { checkResult } from "../../result-checks";
import type { FlowRun } from "../../run";
import { beginAttempt, exhaust, rejected, succeed } from "../../step-done";
import type { Tx } from "../../tx";
import { synthesisPayload } from "./payload";
import { debateOf, readProgress, writeProgress } from "./state";

export function debateStepDone(tx: Tx, run: FlowRun, step: StepIR, result: PyValue): Response {
  const debate = debateOf(step);
  const progress = readProgress(run, step);
  if (progress.phase !== "synthesis") {
    return toolError(
      "wrong_step_type",
      `Step '${step.id}' is a debate step in round ${progress.round + 1} of ${debate.rounds}: report the debaters' arguments with stratum_parallel_done. stratum_step_done takes the synthesis once the rounds are over.`,
    );
  }
  const attempt = beginAttempt(run, step);
  const outcome = checkResult(tx, run, step, result);
  if (outcome.ok) {
    writeProgress(run, step, { ...progress, phase: "done" });
    return succeed(tx, run, step, null, result, attempt);
  }
  if (attempt < debate.synthesis.retries) {
    const payload = synthesisPayload(run, step, resolveInputs(run, step), progress);
    return withFields(payload, {
      status: outcome.status,
      violations: rejected(tx, run, step, outcome.reasons),
    });
  }
  writeProgress(run, step, { ...progress, phase: "failed" });
  return exhaust(tx, run, step, null, result, attempt, outcome.reasons);
}
