// Replaying a counterexample: its calls are sent again (flow-id placeholders mapped to the ids the
// server hands out) through any transport (the in-process engine, or an MCP client), every response
// is kept, and the responses are observed exactly as during fuzzing, so the replay says whether
// the finding shows again.
import { checkSpec, FUZZ_NO_COMPLETION, FUZZ_PROPERTY_VIOLATED } from "../checker/index";
import type { Observation } from "./run/observation";
import { Observer } from "./run/observer";
import { type Plain, Session, type Transport, type WireCall } from "./run/session";
import { fuzzTarget } from "./target";
import { Shapes } from "./values/shapes";

export interface ReplayStep {
  readonly call: WireCall;
  readonly response: Plain;
}

export interface ReplayResult {
  readonly steps: readonly ReplayStep[];
  /** What the fuzzer observes in the replayed responses. */
  readonly observations: readonly Observation[];
  /** Whether a finding with this code (and flow/step when given) shows again (false when not judged). */
  readonly reproduced: boolean;
  /** The observation that reproduced it (null when none did, or for a loop shown by its revisit). */
  readonly shown: Observation | null;
  /**
   * Whether the replay could judge: every call came with the interpreter's typed events (a server
   * that sends none leaves the verdicts unknown; the steps are still the calls and responses).
   */
  readonly judged: boolean;
}

export interface ReplayExpectation {
  readonly code: string;
  readonly flow?: string;
  readonly step?: string | null;
  /**
   * The finding's 1-based line: a property's finding (no step) must be the property on this line,
   * not another property the same run breaks.
   */
  readonly line?: number;
}

export async function replayCounterexample(
  spec: string,
  calls: readonly WireCall[],
  transport: Transport,
  expect: ReplayExpectation | null,
): Promise<ReplayResult> {
  const check = checkSpec(spec);
  const target = fuzzTarget(check);
  const session = new Session(transport);
  const observer =
    target === null ? null : new Observer(target.spec, new Shapes(target.spec, target.literals), session);
  const steps: ReplayStep[] = [];
  for (const call of calls) {
    const response = await session.replay(call);
    steps.push({ call, response });
    await observer?.observe(session.calls - 1);
  }
  const matches = (o: { flow: string; step: string | null }) =>
    expect !== null &&
    (expect.flow === undefined || o.flow === expect.flow) &&
    (expect.step === undefined || o.step === expect.step);
  const sameProperty = (o: Observation) => {
    if (o.anchor.kind !== "property" || expect?.line === undefined || target === null) return true;
    const p = target.spec.properties.get(o.anchor.name);
    return p !== undefined && target.source.lineOf(p.range.start) === expect.line;
  };
  // A property the fuzzer saw broken because it cut the run is broken by the same cut: where it
  // stopped a loop (the replay's observer stops the run at the same call), or else at the call
  // limit, which is where the witness of such a run ends.
  if (
    observer !== null &&
    expect?.code === FUZZ_PROPERTY_VIOLATED.code &&
    !observer.observations.some((o) => o.code === expect.code && matches(o) && sameProperty(o))
  ) {
    if (observer.stopped === "loop" || observer.stopped === null)
      observer.cutRun(observer.stopped ?? "truncated");
  }
  const observations = observer?.observations ?? [];
  // A flow that never completes is judged over every run; its witness is the run that comes back
  // round the loop, which is what a replay can show again.
  const revisit = observer?.revisit ?? null;
  const judged = session.typed;
  const shown =
    judged && expect !== null && expect.code !== FUZZ_NO_COMPLETION.code
      ? (observations.find((o) => o.code === expect.code && matches(o) && sameProperty(o)) ?? null)
      : null;
  const reproduced =
    judged &&
    expect !== null &&
    (expect.code === FUZZ_NO_COMPLETION.code
      ? revisit !== null && matches({ flow: revisit.flow, step: revisit.cause.step })
      : shown !== null);
  return { steps, observations, reproduced, shown, judged };
}
