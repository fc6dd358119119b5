// What the fuzzer checks of the result cache (docs/reference/runtime.md §25.4), from the outside:
// a step the engine served from the cache was never dispatched in its flow, so what a later step
// reads of its output must be what the agent reported for it earlier in the run (the cache is
// emptied as each run starts, session.ts `newRun`); and the trace says which steps were served
// (`cache_hit`, with the `cache_key`), for cached steps only. Either broken is a bug in stratumc,
// reported as FUZZ-INTERNAL.
import type { CheckedSpec, FlowIR, StepIR } from "../../checker/index";
import { FUZZ_INTERNAL } from "../../checker/index";
import { at, canonicalJson, isCached, outputPath } from "./cache";
import type { Observation } from "./observation";
import type { Plain } from "./session";

type Finding = Omit<Observation, "related">;

type OutputPath = ReturnType<typeof outputPath>;

/** Each input's `$.steps.S.output…` path, parsed once: servedInputs reads it at every dispatch. */
const PATHS = new WeakMap<StepIR["inputs"][number], OutputPath>();

function pathOf(input: StepIR["inputs"][number]): OutputPath {
  let path = PATHS.get(input);
  if (path === undefined) {
    path = outputPath(input.raw);
    PATHS.set(input, path);
  }
  return path;
}

function internal(flow: string, step: string, what: string, call: number): Finding {
  return {
    code: FUZZ_INTERNAL.code,
    flow,
    step,
    anchor: { kind: "step" },
    message: `the interpreter's result cache ${what}: please report this bug`,
    call,
  };
}

export class CacheWatch {
  /** `flow/step` → the canonical JSON of every result the agent reported for it in this run. */
  private readonly reported = new Map<string, unknown[]>();

  constructor(private readonly spec: CheckedSpec) {}

  /** A result the agent reported for a step (stratum_step_done, or an iteration's report). */
  noteReported(flow: string, step: string, result: unknown): void {
    // Only a cached step's reports are ever compared (servedInputs): the others are not kept.
    const ir = this.spec.flows.get(flow)?.stepById.get(step);
    if (ir === undefined || !isCached(this.spec, ir)) return;
    const key = `${flow}/${step}`;
    let list = this.reported.get(key);
    if (list === undefined) {
      list = [];
      this.reported.set(key, list);
    }
    list.push(result);
  }

  /**
   * A step dispatched with `inputs` in a flow where `dispatched(s)` says whether step s was
   * dispatched before: every input it reads from a cached step that never was (so the cache
   * served it) must be what some reported result of that step gives.
   */
  servedInputs(
    flow: FlowIR,
    step: StepIR,
    inputs: Plain,
    dispatched: (stepId: string) => boolean,
    call: number,
  ): Finding | null {
    for (const input of step.inputs) {
      const path = pathOf(input);
      if (path === null || !Object.hasOwn(inputs, input.name)) continue;
      const producer = flow.stepById.get(path.step);
      if (producer === undefined || !isCached(this.spec, producer) || dispatched(producer.id)) continue;
      const got = inputs[input.name];
      // A producer skipped (or jumped over) gives null: not the cache's doing.
      if (got === null || got === undefined) continue;
      const candidates = this.reported.get(`${flow.name}/${producer.id}`) ?? [];
      // Nothing reported in this run: the entry is not this run's (a server's warm cache).
      if (candidates.length === 0) continue;
      const text = canonicalJson(got);
      if (candidates.some((r) => canonicalJson(at(r, path.fields)) === text)) continue;
      return internal(
        flow.name,
        producer.id,
        `served step '${producer.id}' an output the agent never reported for it (step '${step.id}' got ${clip(text)} for input '${input.name}')`,
        call,
      );
    }
    return null;
  }

  /**
   * The trace of a finished run's flow: a record that says `cache_hit` is for a cached step and
   * names its key, and a cached step that has a record but was never dispatched says `cache_hit`.
   */
  records(
    flow: FlowIR,
    trace: readonly Plain[],
    dispatched: (stepId: string) => boolean,
    call: number,
  ): Finding[] {
    const out: Finding[] = [];
    for (const r of trace) {
      if (r.type !== "step" || typeof r.step_id !== "string") continue;
      const step = flow.stepById.get(r.step_id);
      if (step === undefined) continue;
      if (r.cache_hit === true) {
        if (!isCached(this.spec, step))
          out.push(internal(flow.name, step.id, `served step '${step.id}', which is not cached`, call));
        else if (typeof r.cache_key !== "string" || r.cache_key === "")
          out.push(
            internal(flow.name, step.id, `served step '${step.id}' without naming its cache_key`, call),
          );
      } else if (isCached(this.spec, step) && !dispatched(step.id)) {
        out.push(
          internal(
            flow.name,
            step.id,
            `served step '${step.id}', but its trace record does not say cache_hit`,
            call,
          ),
        );
      }
    }
    return out;
  }
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
