// Test support for the gate, policy, timeout, iteration, checkpoint and audit tools: a flow run
// built from spec text and a minimal in-memory transaction. The transaction hands out the run
// itself for both `read` and `edit` (no working copy), so a test sees every change a tool made;
// commit semantics are the engine's business and are tested there.
import { checkSpec } from "../../../checker/check-spec";
import type { CheckedSpec } from "../../../checker/ir/types";
import { newRun } from "../../../interpreter/flow/new-flow";
import type { FlowRun } from "../../../interpreter/flow/run";
import type { CheckedText, Tx, TxFact } from "../../../interpreter/flow/tx";
import { wireToPlain } from "../../../interpreter/wire/encode";
import type { Wire, WireObject } from "../../../interpreter/wire/wire";
import type { FileAccess } from "../../../stdlib/files";
import { makeDict } from "../../../stdlib/values/dict";
import { fromJsonValue } from "../../../stdlib/values/json";
import type { PyValue } from "../../../stdlib/values/value";
import { ManualClock } from "../support/manual-clock";

export const FLOW_ID = "00000000-0000-4000-8000-000000000001";

// The checked IR is immutable, so runs of the same spec text can share it.
const compiled = new Map<string, CheckedSpec>();

function compile(specText: string): CheckedSpec {
  const cached = compiled.get(specText);
  if (cached !== undefined) return cached;
  const checked = checkSpec(specText);
  if (checked.ir === null) {
    throw new Error(`invalid test spec: ${checked.errors.map((e) => e.message).join("; ")}`);
  }
  compiled.set(specText, checked.ir);
  return checked.ir;
}

/** A fresh run of `flowName` (default: the only flow) planned at the clock's current time. */
function makeRun(specText: string, clock: ManualClock, flowName?: string): FlowRun {
  const spec = compile(specText);
  const name = flowName ?? [...spec.flows.keys()][0];
  const flow = name === undefined ? undefined : spec.flows.get(name);
  if (flow === undefined) throw new Error(`no flow '${String(name)}' in the test spec`);
  return newRun(
    spec,
    flow,
    {
      flowId: FLOW_ID,
      rawSpec: specText,
      inputs: makeDict([]),
      cwd: "/nowhere",
      parentFlowId: null,
      parentStepId: null,
    },
    clock,
  );
}

export class TestTx implements Tx {
  readonly serverCwd = "/nowhere";
  readonly results = null;
  readonly warnings: string[] = [];
  private readonly runs = new Map<string, FlowRun>();
  readonly edited = new Set<string>();

  constructor(
    readonly clock: ManualClock,
    ...runs: FlowRun[]
  ) {
    for (const run of runs) this.runs.set(run.state.flow_id, run);
  }

  readonly ids = { newFlowId: (): string => "00000000-0000-4000-8000-0000000000ff" };

  files(cwd: string): FileAccess | null {
    void cwd;
    return null;
  }
  read(flowId: string): FlowRun | null {
    return this.runs.get(flowId) ?? null;
  }
  edit(flowId: string): FlowRun | null {
    const run = this.runs.get(flowId) ?? null;
    if (run !== null) this.edited.add(flowId);
    return run;
  }
  create(run: FlowRun): void {
    this.runs.set(run.state.flow_id, run);
  }
  detach(flowId: string): void {
    this.runs.delete(flowId);
  }
  warn(message: string): void {
    this.warnings.push(message);
  }
  readonly facts: TxFact[] = [];
  note(fact: TxFact): void {
    this.facts.push(fact);
  }
  compile(specText: string): CheckedSpec | null {
    return checkSpec(specText).ir;
  }
  check(specText: string): CheckedText {
    const checked = checkSpec(specText);
    return { errors: checked.errors, ir: checked.valid ? checked.ir : null };
  }
}

/** A world of one run: its clock, the run and a transaction over it. */
export function world(specText: string, flowName?: string): { clock: ManualClock; run: FlowRun; tx: TestTx } {
  const clock = new ManualClock();
  const run = makeRun(specText, clock, flowName);
  return { clock, run, tx: new TestTx(clock, run) };
}

/** User data from plain JS (integral numbers become ints). */
export function data(value: unknown): PyValue {
  return fromJsonValue(value);
}

/** A response as plain JS data (floats become numbers), for `toEqual`. */
export function plain(value: Wire | WireObject): unknown {
  return wireToPlain(value);
}

/** The keys of a response in order, for key-order assertions. */
export function keysOf(value: WireObject): string[] {
  return Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);
}
