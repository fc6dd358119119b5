// Helpers of the flow state machine tests: a run built straight from spec text (no engine), a
// transaction over it, and JSON text of responses for exact comparisons.
import { checkSpec } from "../../../checker/check-spec";
import { EngineTx } from "../../../interpreter/engine/transaction";
import { newRun } from "../../../interpreter/flow/new-flow";
import type { FlowRun } from "../../../interpreter/flow/run";
import { encodeWire } from "../../../interpreter/wire/encode";
import type { Wire } from "../../../interpreter/wire/wire";
import { parseJson } from "../../../stdlib/values/json";
import { PyDict, type PyValue } from "../../../stdlib/values/value";
import { ManualClock } from "../support/manual-clock";
import { SequentialIds } from "../support/sequential-ids";

/** A valid spec's run of `flowName` with JSON `inputs` (throws on an invalid spec: a test bug). */
export function runOf(spec: string, flowName: string, inputs = "{}"): FlowRun {
  const checked = checkSpec(spec);
  if (!checked.valid || checked.ir === null) {
    throw new Error(`fixture spec is invalid: ${checked.errors.map((e) => e.message).join("; ")}`);
  }
  const flow = checked.ir.flows.get(flowName);
  if (flow === undefined) throw new Error(`no flow ${flowName}`);
  const parsed = parseJson(inputs);
  if (!(parsed instanceof PyDict)) throw new Error("inputs must be an object");
  return newRun(
    checked.ir,
    flow,
    {
      flowId: "flow-1",
      rawSpec: spec,
      inputs: parsed,
      cwd: "/nowhere",
      parentFlowId: null,
      parentStepId: null,
    },
    new ManualClock(),
  );
}

/** A transaction in which `run` itself is the working copy of a created flow. */
export function txOf(run: FlowRun, clock = new ManualClock()): EngineTx {
  const tx = new EngineTx(
    {
      clock,
      ids: new SequentialIds(),
      serverCwd: "/nowhere",
      files: () => null,
      check: (text) => {
        const checked = checkSpec(text);
        return { errors: checked.errors, ir: checked.valid ? checked.ir : null };
      },
    },
    new Map(),
  );
  tx.create(run);
  return tx;
}

/** One-line JSON text of a wire value (Python json.dumps layout): key order is compared too. */
export function text(v: Wire): string {
  return encodeWire(v);
}

export function json(s: string): PyValue {
  return parseJson(s);
}
