// The checker's control analysis (controlSoundness, docs/reference/language.md §9.8) in the fuzzer's report:
// what holds on every run is decided there, exactly, and reported by `check`; the fuzzer takes its
// verdicts as they are (a note names the checker's code) and drops its own findings of the same
// defects, so a flow that never completes or a step that never runs is said once, by the checker,
// and the fuzzer confirms only what depends on data.
import type { FlowIR, FlowVerdict } from "../checker/index";
import { controlSoundness, FUZZ_DEAD_STEP, FUZZ_NO_COMPLETION, FUZZ_UNBOUNDED_LOOP } from "../checker/index";
import type { FlowSoundness, SoundnessNote } from "./report";
import type { Observation } from "./run/observation";
import { type FuzzTarget, Locator } from "./target";

/** The checker's code for each reason a step never runs. */
const DEAD_CODES = {
  unreachable: "SPEC-STEP-UNREACHABLE",
  "always-skipped": "SPEC-STEP-ALWAYS-SKIPPED",
  "route-never-taken": "SPEC-STEP-DEAD",
} as const;

export interface StaticMerge {
  readonly soundness: Record<string, FlowSoundness>;
  /** Whether the fuzzer's own observation repeats a defect the checker reports. */
  readonly repeatsChecker: (o: Observation) => boolean;
}

export function withStaticControl(
  target: FuzzTarget,
  flows: readonly FlowIR[],
  soundness: Readonly<Record<string, FlowSoundness>>,
): StaticMerge {
  const control = controlSoundness(target.spec);
  const locate = new Locator(target);
  const line = (offset: number) => target.source.lineOf(offset);
  // Flow names are user text: they never key an object with a prototype.
  const merged: Record<string, FlowSoundness> = Object.create(null);
  const neverCompletes = new Set<string>();
  const dead = new Set<string>();
  for (const flow of flows) {
    const own = soundness[flow.name];
    if (own === undefined) continue;
    const verdict: FlowVerdict | undefined = control.flows.get(flow.name);
    if (verdict === undefined || !verdict.decided) {
      merged[flow.name] = own;
      continue;
    }
    const notes: SoundnessNote[] = [...own.notes];
    let option = own.option_to_complete;
    if (!verdict.completes || !verdict.optionToComplete) {
      option = "violated";
      if (!verdict.completes) neverCompletes.add(flow.name);
      const code = verdict.completes ? "SPEC-FLOW-TRAP" : "SPEC-FLOW-NEVER-COMPLETES";
      const what = verdict.completes ? "a reachable state can no longer complete" : "no run completes";
      notes.push({
        step: null,
        line: line(locate.flow(flow.name).start),
        message: `the checker's control analysis proves ${what} (${code}; \`stratumc check\` reports where)`,
      });
    }
    let deadVerdict = own.no_dead_steps;
    for (const d of verdict.deadSteps) {
      deadVerdict = "violated";
      dead.add(`${flow.name}/${d.step}`);
      notes.push({
        step: d.step,
        line: line(locate.step(flow.name, d.step).start),
        message: `the checker's control analysis proves step '${d.step}' never runs (${DEAD_CODES[d.reason.kind]})`,
      });
    }
    merged[flow.name] = { ...own, option_to_complete: option, no_dead_steps: deadVerdict, notes };
  }
  const repeatsChecker = (o: Observation): boolean => {
    if (o.code === FUZZ_DEAD_STEP.code) return dead.has(`${o.flow}/${o.step ?? ""}`);
    if (o.code === FUZZ_NO_COMPLETION.code || o.code === FUZZ_UNBOUNDED_LOOP.code)
      return neverCompletes.has(o.flow);
    return false;
  };
  return { soundness: merged, repeatsChecker };
}
