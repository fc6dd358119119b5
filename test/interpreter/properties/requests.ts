// Random requests an agent (or a confused client) may send to a flow: every flow tool with the
// current step, another step or an unknown one, passing / failing / malformed results, random gate
// outcomes, checkpoints, plus the test hooks `restart` and `advance` (the clock moves on).
import fc from "fast-check";
import type { StratumApi } from "../../../interpreter/api";
import type { Response } from "../../../interpreter/wire/wire";
import { makeDict } from "../../../stdlib/values/dict";
import { fromJsonValue } from "../../../stdlib/values/json";
import { PyFloat, type PyValue } from "../../../stdlib/values/value";
import { PASSING_RESULT } from "./spec-arbitrary";

/** "current" = the flow's current step at the time of the call; a number = the n-th step (mod count). */
export type StepRef = "current" | "unknown" | number;

export type ResultKind = "pass" | "fail" | "contract" | "text" | "null" | "empty" | "extra";

export type Request =
  /** What a working agent does next: resolve the current gate, or report on the current step. */
  | { readonly op: "proceed"; readonly outcome: "approve" | "revise" | "kill"; readonly result: ResultKind }
  | { readonly op: "step_done"; readonly step: StepRef; readonly result: ResultKind }
  | {
      readonly op: "gate_resolve";
      readonly step: StepRef;
      readonly outcome: string;
      readonly resolvedBy: string;
    }
  | { readonly op: "skip"; readonly step: StepRef }
  | { readonly op: "iteration_start"; readonly step: StepRef }
  | { readonly op: "iteration_report"; readonly step: StepRef; readonly result: ResultKind }
  | { readonly op: "iteration_abort"; readonly step: StepRef }
  | { readonly op: "commit"; readonly label: string }
  | { readonly op: "revert"; readonly label: string }
  | { readonly op: "resume" }
  | { readonly op: "audit" }
  | { readonly op: "check_timeouts" }
  | {
      readonly op: "unknown_flow";
      readonly tool: "step_done" | "audit" | "resume" | "commit" | "gate_resolve";
    }
  | { readonly op: "restart" }
  | { readonly op: "advance"; readonly seconds: number };

/** A well-formed id that no flow ever has (test ids come from SequentialIds). */
export const UNKNOWN_FLOW_ID = "ffffffff-ffff-4fff-bfff-ffffffffffff";

export function resultValue(kind: ResultKind): PyValue {
  switch (kind) {
    case "pass":
      return fromJsonValue(PASSING_RESULT);
    case "fail":
      return fromJsonValue({ v: "", ok: false });
    case "contract":
      return fromJsonValue({ v: 1 });
    case "text":
      return "done";
    case "null":
      return null;
    case "empty":
      return fromJsonValue({});
    case "extra":
      // A passing result that also carries an integral float (its kind must survive the store).
      return makeDict([
        ["v", "good"],
        ["ok", true],
        ["score", new PyFloat(2.0)],
        ["tags", ["x", 1, null]],
      ]);
  }
}

const stepRef: fc.Arbitrary<StepRef> = fc.oneof(
  { weight: 8, arbitrary: fc.constant<StepRef>("current") },
  { weight: 2, arbitrary: fc.nat({ max: 9 }) },
  { weight: 1, arbitrary: fc.constant<StepRef>("unknown") },
);

const resultKind: fc.Arbitrary<ResultKind> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<ResultKind>("pass") },
  { weight: 3, arbitrary: fc.constant<ResultKind>("fail") },
  { weight: 1, arbitrary: fc.constantFrom<ResultKind>("contract", "text", "null", "empty", "extra") },
);

const label = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("a", "b") },
  { weight: 1, arbitrary: fc.constantFrom(" a ", "", "   ") },
);

export const request: fc.Arbitrary<Request> = fc.oneof(
  {
    weight: 14,
    arbitrary: fc.record({
      op: fc.constant("proceed" as const),
      outcome: fc.constantFrom("approve", "approve", "approve", "revise", "kill" as const),
      result: resultKind,
    }),
  },
  {
    weight: 10,
    arbitrary: fc.record({ op: fc.constant("step_done" as const), step: stepRef, result: resultKind }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant("gate_resolve" as const),
      step: stepRef,
      outcome: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom("approve", "revise", "kill") },
        { weight: 1, arbitrary: fc.constantFrom("maybe", "") },
      ),
      resolvedBy: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom("human", "agent", "system") },
        { weight: 1, arbitrary: fc.constant("robot") },
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("skip" as const), step: stepRef }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("iteration_start" as const), step: stepRef }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("iteration_report" as const), step: stepRef, result: resultKind }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("iteration_abort" as const), step: stepRef }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("commit" as const), label }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("revert" as const), label }) },
  { weight: 1, arbitrary: fc.constant({ op: "resume" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "audit" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "check_timeouts" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("unknown_flow" as const),
      tool: fc.constantFrom("step_done", "audit", "resume", "commit", "gate_resolve" as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: "restart" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("advance" as const), seconds: fc.constantFrom(1, 30, 200) }),
  },
);

/**
 * Calls the tool of a request; `stepId` resolves a StepRef against the flow as it is now, `atGate`
 * says whether its current step is a gate.
 */
export function send(
  api: StratumApi,
  flowId: string,
  r: Request,
  stepId: (ref: StepRef) => string,
  atGate: boolean,
): Promise<Response> {
  switch (r.op) {
    case "proceed":
      return atGate
        ? api.gateResolve({
            flow_id: flowId,
            step_id: stepId("current"),
            outcome: r.outcome,
            rationale: "",
            resolved_by: "human",
          })
        : api.stepDone({ flow_id: flowId, step_id: stepId("current"), result: resultValue(r.result) });
    case "step_done":
      return api.stepDone({ flow_id: flowId, step_id: stepId(r.step), result: resultValue(r.result) });
    case "gate_resolve":
      return api.gateResolve({
        flow_id: flowId,
        step_id: stepId(r.step),
        outcome: r.outcome,
        rationale: "because",
        resolved_by: r.resolvedBy,
      });
    case "skip":
      return api.skipStep({ flow_id: flowId, step_id: stepId(r.step), reason: "not needed" });
    case "iteration_start":
      return api.iterationStart({ flow_id: flowId, step_id: stepId(r.step) });
    case "iteration_report":
      return api.iterationReport({ flow_id: flowId, step_id: stepId(r.step), result: resultValue(r.result) });
    case "iteration_abort":
      return api.iterationAbort({ flow_id: flowId, step_id: stepId(r.step), reason: "stop" });
    case "commit":
      return api.commit({ flow_id: flowId, label: r.label });
    case "revert":
      return api.revert({ flow_id: flowId, label: r.label });
    case "resume":
      return api.resume({ flow_id: flowId });
    case "audit":
      return api.audit({ flow_id: flowId });
    case "check_timeouts":
      return api.checkTimeouts({ flow_id: flowId });
    case "unknown_flow":
      return sendToUnknownFlow(api, r.tool);
    case "restart":
    case "advance":
      throw new Error(`'${r.op}' is a test hook`);
  }
}

function sendToUnknownFlow(
  api: StratumApi,
  tool: "step_done" | "audit" | "resume" | "commit" | "gate_resolve",
) {
  const flow_id = UNKNOWN_FLOW_ID;
  switch (tool) {
    case "step_done":
      return api.stepDone({ flow_id, step_id: "s0", result: null });
    case "audit":
      return api.audit({ flow_id });
    case "resume":
      return api.resume({ flow_id });
    case "commit":
      return api.commit({ flow_id, label: "a" });
    case "gate_resolve":
      return api.gateResolve({
        flow_id,
        step_id: "s0",
        outcome: "approve",
        rationale: "",
        resolved_by: "human",
      });
  }
}
