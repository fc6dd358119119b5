// A judge step (docs/reference/runtime.md §25.3): the agent first calls stratum_judge with the
// step's own declaration and evidence it generates (each artifact a deterministic predicate names
// is given, with text holding the spec's words, or left out), then reports a result, passing or
// failing the step's ensures, with stratum_step_done like an inline step's. stratum_judge changes
// nothing in the flow, so the report decides the step.
import type { FlowIR, StepIR } from "../../../checker/index";
import type { Plain } from "../session";
import type { FuzzKind, KindRun } from "./kind";

const ARTIFACT = /artifacts\/([^'"/\\]+)\.txt/g;
/** Quoted text in a statement: what file_contains looks for. */
const QUOTED = /'([^'\\]*)'|"([^"\\]*)"/g;

/** The statements of the step's predicates. */
function statements(step: StepIR): string[] {
  return (step.judge?.predicates ?? []).flatMap((p) =>
    typeof p.statement === "string" ? [p.statement] : [],
  );
}

/** The artifact names the step's predicates read. */
function artifactNames(step: StepIR): string[] {
  const names = new Set<string>();
  for (const statement of statements(step)) {
    for (const m of statement.matchAll(ARTIFACT))
      if (m[1] !== undefined && !m[1].startsWith(".")) names.add(m[1]);
  }
  return [...names];
}

/** An artifact's text: the spec's words and every quoted text of the predicates. */
function artifactText(run: KindRun, step: StepIR): string {
  const quoted = statements(step).flatMap((s) => [...s.matchAll(QUOTED)].map((m) => m[1] ?? m[2] ?? ""));
  return [...run.literals, ...quoted].join("\n");
}

async function judgeThenReport(
  run: KindRun,
  _flow: FlowIR,
  step: StepIR,
  flowId: string,
  result: unknown,
  aim: "pass" | "other",
): Promise<Plain> {
  const judge = step.judge ?? null;
  if (judge !== null) {
    const artifacts: Record<string, string> = Object.create(null);
    for (const name of artifactNames(step)) {
      const given = run.decider.choose([
        { name: "given", weight: 3, exhaustive: false },
        { name: "missing", weight: 1, exhaustive: false },
      ]);
      if (given === "given") artifacts[name] = artifactText(run, step);
    }
    await run.call("stratum_judge", {
      flow_id: flowId,
      step_id: step.id,
      predicates: judge.predicates,
      artifacts,
      stakes: judge.stakes,
      budget: judge.budget,
    });
    if (run.stopped() !== null) return { status: "stopped" };
  }
  return run.stepDone(flowId, step.id, result, true, aim);
}

export const judge: FuzzKind = {
  fanOut: null,
  report: judgeThenReport,
  membersOf: null,
  reportsRounds: false,
  aggregate: null,
};
