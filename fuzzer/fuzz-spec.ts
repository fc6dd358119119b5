// `fuzzSpec(text)`: checks the spec, then explores each flow's run-time behaviour (exhaustively
// when the flow is small enough, randomly in any case), shrinks every finding's witness, adds the
// findings about what never happened, and states the soundness of each flow.
import fc from "fast-check";
import type { FlowIR, JsonObject } from "../checker/index";
import {
  type CheckResult,
  checkSpec,
  compareDiagnostics,
  FUZZ_NO_COMPLETION,
  FUZZ_UNBOUNDED_LOOP,
} from "../checker/index";
import { walk } from "../grammar/index";
import { SpecCache } from "../interpreter/index";
import { virtualFiles } from "./engine";
import { absenceFindings } from "./explore/absence";
import { exploreExhaustive } from "./explore/exhaustive";
import { minimizeWitness } from "./explore/minimize";
import { exploreProbes } from "./explore/property-probes";
import { exploreRandom, type Sighting, shrinkSighting } from "./explore/random";
import { runEndings } from "./explore/why-unreached";
import { type Explored, propertyVerdicts } from "./property-verdicts";
import {
  type Counterexample,
  type FlowSoundness,
  type FuzzFinding,
  type FuzzReport,
  locateFinding,
  type SoundnessNote,
  suppressed,
  type Verdict,
} from "./report";
import type { RunOutcome, RunSetup } from "./run/driver";
import { routeOf } from "./run/loops";
import {
  attributable,
  type Coverage,
  emptyCoverage,
  identityOf,
  mergeCoverage,
  neverAccepted,
  type Observation,
  type RunEnd,
  stepKey,
} from "./run/observation";
import { propertiesOf } from "./run/properties";
import { Solver } from "./solver";
import { withStaticControl } from "./static-control";
import { expressionsOfFlow, type FuzzTarget, fuzzTarget, Locator } from "./target";
import { engineTransport } from "./transport";
import { ABSENT } from "./values/json-arbs";
import { optionalInput, Shapes } from "./values/shapes";

export interface FuzzOptions {
  /** Default 42: the same seed gives the same report. */
  readonly seed?: number;
  /** Random runs per flow (default 100). */
  readonly runs?: number;
  /** Tool calls per run (default 200). */
  readonly maxCalls?: number;
  /** Only this flow (default: every flow). */
  readonly flow?: string;
  /** Stop exploring after this many milliseconds (the report then depends on speed). */
  readonly timeBudgetMs?: number;
  /**
   * Stop exploring at this time on the `now` clock (instead of `timeBudgetMs` after the check): a
   * caller whose budget counts from before the spec was checked (the MCP tool).
   */
  readonly deadlineAt?: number;
  /** Abstract paths per flow before exhaustive mode gives up (default 100). */
  readonly maxPaths?: number;
  /** Milliseconds, for the time budget and progress (default Date.now). */
  readonly now?: () => number;
  readonly onProgress?: (p: FuzzProgress) => void;
  /**
   * Default true: what the checker's control analysis decides (a flow that never completes, a
   * step that never runs) is taken from it, and the fuzzer does not report it again. False: the
   * fuzzer's own exploration only (to compare the two).
   */
  readonly staticControl?: boolean;
}

export interface FuzzProgress {
  readonly runs: number;
  readonly paths: number;
  readonly findings: number;
  /** Flows whose exploration has finished, of `flows`. */
  readonly flowsDone: number;
  readonly flows: number;
  /** The flow being explored; null once every flow was (the findings are being finished). */
  readonly flow: string | null;
}

export interface FuzzResult {
  /** The checker's result: a spec with errors is not fuzzed. */
  readonly check: CheckResult;
  readonly report: FuzzReport | null;
}

export const DEFAULT_SEED = 42;
export const DEFAULT_RUNS = 100;
const DEFAULT_MAX_PATHS = 100;
export const DEFAULT_MAX_CALLS = 200;
/**
 * Runs of shrunk scenarios per random finding. A count, not a time: a time limit made the witness
 * (and so the finding's message) depend on the machine's speed, and on a quiet machine let one
 * finding's shrinking take seconds. The call-by-call minimizer shortens the witness after it.
 */
const SHRINK_RUNS = 30;
/** The seed of exhaustive mode's values (inputs it does not enumerate, results it aims with). */
const EXHAUSTIVE_SEED = 0;
const MAX_INPUT_COMBINATIONS = 16;

export class UnknownFlowError extends Error {}

export async function fuzzSpec(text: string, options: FuzzOptions = {}): Promise<FuzzResult> {
  return fuzzChecked(checkSpec(text), options);
}

export async function fuzzChecked(check: CheckResult, options: FuzzOptions = {}): Promise<FuzzResult> {
  const target = fuzzTarget(check);
  if (target === null) return { check, report: null };
  const seed = options.seed ?? DEFAULT_SEED;
  const now = options.now ?? Date.now;
  const deadline =
    options.deadlineAt ?? (options.timeBudgetMs === undefined ? null : now() + options.timeBudgetMs);
  // Every phase stops at the deadline: exploration, shrinking, minimizing and the absence search.
  // `stopped` says whether the deadline cut any of them short; flows it reached before they were
  // explored at all get no verdict (a verdict never claims more than was explored).
  let stopped = false;
  const expired = (): boolean => {
    if (deadline === null || now() < deadline) return false;
    stopped = true;
    return true;
  };
  const flows = [...target.spec.flows.values()].filter(
    (f) => options.flow === undefined || f.name === options.flow,
  );
  if (options.flow !== undefined && flows.length === 0) {
    throw new UnknownFlowError(
      `no flow '${options.flow}' in the spec (flows: ${[...target.spec.flows.keys()].join(", ") || "none"})`,
    );
  }
  const files = virtualFiles(target.literals.strings);
  const shapes = new Shapes(target.spec, target.literals);
  const solver = new Solver(target.spec, shapes, seed, files);
  // Exhaustive mode draws its values with a seed of its own: what it proves or finds is the same
  // whatever seed the random runs use.
  // What no seed changes (the derived candidates and their context-free outcomes) it shares.
  const exhaustiveSolver = solver.withSeed(EXHAUSTIVE_SEED);
  // The spec is checked once: every engine of the session (exploration, each replay of the
  // minimizer) finds this check in the shared cache instead of checking the text again.
  const specs = new SpecCache();
  specs.remember(check.source.text, check);
  const minimizing = { target, shapes, files, specs, expired };
  const transport = engineTransport(files, specs);
  const coverage = emptyCoverage();
  const observations = new Map<
    string,
    { obs: Observation; counterexample: Counterexample | null; manualSkip: boolean }
  >();
  // Flow names are user text: they never key an object with a prototype.
  const soundness: Record<string, FlowSoundness> = Object.create(null);
  const blocked = new Set<string>();
  /** What each explored flow's exploration allows a property verdict to claim. */
  const explored = new Map<string, Explored>();
  let runs = 0;
  let paths = 0;
  let fewestRuns = Number.MAX_SAFE_INTEGER;
  let allExhaustive = flows.length > 0;
  const notExplored: string[] = [];
  let flowsDone = 0;
  let current: string | null = null;
  const progress = () =>
    options.onProgress?.({
      runs,
      paths,
      findings: observations.size,
      flowsDone,
      flows: flows.length,
      flow: current,
    });

  for (const flow of flows) {
    if (expired()) {
      // Nothing was run: no step of it may be called dead, by the fewest runs per flow either.
      notExplored.push(flow.name);
      allExhaustive = false;
      fewestRuns = 0;
      continue;
    }
    current = flow.name;
    progress();
    const setup: RunSetup = {
      target,
      shapes,
      solver,
      transport,
      flow: flow.name,
      maxCalls: options.maxCalls ?? DEFAULT_MAX_CALLS,
    };
    const menu = inputMenu(shapes, target, flow, EXHAUSTIVE_SEED);
    const exhaustive = await exploreExhaustive({ ...setup, solver: exhaustiveSolver }, menu.combinations, {
      maxPaths: options.maxPaths ?? DEFAULT_MAX_PATHS,
      deadline,
      now,
    });
    if (!exhaustive.complete) expired();
    paths += exhaustive.paths;
    // The values the properties compare, tried with the exhaustive seed: the same on every seed.
    const probes = await exploreProbes(
      { ...setup, solver: exhaustiveSolver },
      flow,
      propertiesOf(target.spec, flow.name),
      menu.combinations[0] ?? {},
      expired,
    );
    const complete = exhaustive.complete && menu.complete;
    if (!complete) allExhaustive = false;
    progress();
    const wantedRuns = options.runs ?? DEFAULT_RUNS;
    const random = await exploreRandom(setup, {
      seed,
      runs: wantedRuns,
      deadline,
      now,
      // fast-check stops generating scenarios at the deadline too, when it is on the real clock
      // (fast-check reads no other).
      ...(deadline !== null && options.now === undefined ? { interruptAfterMs: deadline - now() } : {}),
      onRun: () => {
        runs++;
        if (runs % 25 === 0) progress();
      },
    });
    if (random.runs < wantedRuns) expired();
    fewestRuns = Math.min(fewestRuns, random.runs);
    const flowCoverage: Coverage = emptyCoverage();
    mergeCoverage(flowCoverage, exhaustive.coverage);
    mergeCoverage(flowCoverage, random.coverage);
    mergeCoverage(flowCoverage, probes.coverage);
    mergeCoverage(coverage, flowCoverage);
    // Witnesses: exhaustive ones are already the shortest of their kind; random ones are shrunk.
    const found = new Map<string, { obs: Observation; outcome: RunOutcome }>();
    for (const [id, s] of exhaustive.sightings) found.set(id, { obs: s.observation, outcome: s.outcome });
    for (const [id, s] of probes.sightings)
      if (!found.has(id)) found.set(id, { obs: s.observation, outcome: s.outcome });
    for (const [id, s] of random.sightings) {
      if (found.has(id) || observations.has(id)) continue;
      const shrunk = await shrink(setup, seed, id, s, deadline === null ? null : deadline - now(), expired);
      found.set(id, {
        obs: shrunk.observations.find((o) => attributable(o) && idOf(o) === id) ?? s.observation,
        outcome: shrunk,
      });
    }
    const loopFound = [...found.values()].find(
      (f) => f.obs.code === FUZZ_UNBOUNDED_LOOP.code && f.obs.flow === flow.name,
    );
    const never = complete
      ? neverCompletes(flow, flowCoverage, exhaustive.ends.get("revisit"), loopFound)
      : null;
    if (never !== null) {
      // The loop is the flow's defect on every run: reported once, as the error it is.
      for (const [id, f] of found) {
        if (f.obs.code === FUZZ_UNBOUNDED_LOOP.code && f.obs.flow === flow.name) found.delete(id);
      }
      found.set(identityOf(never.obs), never);
    }
    for (const [id, f] of found) {
      if (observations.has(id)) continue;
      const { calls, observation } = await minimizeWitness(
        minimizing,
        f.outcome.calls.slice(0, f.obs.call + 1),
        {
          identity: id,
          code: f.obs.code,
          flow: f.obs.flow,
          step: f.obs.step,
          ...(f.obs.cut === undefined ? {} : { cut: f.obs.cut }),
        },
      );
      const plan = calls[0]?.tool === "stratum_plan" ? calls[0].arguments.inputs : undefined;
      observations.set(id, {
        obs: observation === null ? f.obs : { ...observation, call: calls.length - 1 },
        counterexample: { seed, input: isRecord(plan) ? plan : f.outcome.input, calls },
        manualSkip: calls.some((c) => c.tool === "stratum_skip_step"),
      });
    }
    const ends = new Map<RunEnd, RunOutcome>([...random.ends, ...exhaustive.ends]);
    if (ends.has("stuck") || ends.has("internal")) blocked.add(flow.name);
    soundness[flow.name] = verdicts(
      target,
      flow,
      complete,
      ends,
      [...found.values()].map((f) => f.obs),
      flowCoverage,
    );
    // A property that held is proven only when every path was explored to its end: a path cut
    // where it came back to an explored state, or at the call limit, leaves what follows unchecked.
    const cutShort = ends.has("revisit") || ends.has("loop") || ends.has("truncated");
    const unpassed = unpassedNotes(target, flow, flowCoverage).length > 0;
    explored.set(flow.name, {
      held: complete && !cutShort ? "proven" : unpassed ? "suspect" : "not_refuted",
      runs: random.runs + exhaustive.paths + probes.runs,
      undecided: flowCoverage.propertiesUndecided,
      enumerated: menu.enumerated,
    });
    flowsDone++;
    progress();
  }
  current = null;
  // A flow that never completes is reported once, as that error: the loop a parent flow's runs
  // showed in it (as a sub-flow) is the same defect.
  const neverComplete = new Set(
    [...observations.values()]
      .filter(({ obs }) => obs.code === FUZZ_NO_COMPLETION.code)
      .map(({ obs }) => obs.flow),
  );
  for (const [id, { obs }] of observations) {
    if (obs.code === FUZZ_UNBOUNDED_LOOP.code && neverComplete.has(obs.flow)) observations.delete(id);
  }

  const absent = absenceFindings({
    target,
    shapes,
    solver,
    coverage,
    seed,
    blocked,
    exploredFlows: new Set(flows.map((f) => f.name).filter((name) => !notExplored.includes(name))),
    proven: allExhaustive,
    runs,
    runsPerFlow: fewestRuns,
    expired,
  });
  for (const o of absent) observations.set(idOf(o), { obs: o, counterexample: null, manualSkip: false });
  for (const flow of flows) {
    const dead = flow.steps.some((s) =>
      absent.some((o) => o.code === "FUZZ-DEAD-STEP" && o.flow === flow.name && o.step === s.id),
    );
    const s = soundness[flow.name];
    if (s !== undefined && dead)
      soundness[flow.name] = { ...s, no_dead_steps: allExhaustive ? "violated" : "suspect" };
  }

  const merge = options.staticControl === false ? null : withStaticControl(target, flows, soundness);
  const findings = dedupeByPlace(
    [...observations.values()]
      .filter(({ obs }) => merge === null || !merge.repeatsChecker(obs))
      // A finding whose shortest witness still needs a step skipped by hand is the human's doing,
      // not the spec's (an interpreter failure is reported whatever led to it).
      .filter(({ obs, manualSkip }) => !manualSkip || obs.code === "FUZZ-INTERNAL")
      // `# stratum-ignore[FUZZ-…]: reason` on the finding's line (or the line above).
      .filter(({ obs }) => obs.code === "FUZZ-INTERNAL" || !suppressed(target, obs))
      .map(({ obs, counterexample }) => locateFinding(target, obs, counterexample)),
  ).sort(compareDiagnostics);
  return {
    check,
    report: {
      seed,
      runs,
      paths,
      exhaustive: allExhaustive,
      soundness: merge?.soundness ?? soundness,
      properties: propertyVerdicts(target, explored, [...observations.values()]),
      findings,
      stoppedByDeadline: stopped,
      notExplored,
    },
  };
}

const idOf = identityOf;

/** The sighting's run shrunk in at most SHRINK_RUNS runs and what is left of the budget (`leftMs`). */
async function shrink(
  setup: RunSetup,
  seed: number,
  id: string,
  s: Sighting,
  leftMs: number | null,
  expired: () => boolean,
): Promise<RunOutcome> {
  if (expired()) return s.outcome;
  const shrunk = await shrinkSighting(setup, seed, s.run, id, SHRINK_RUNS, leftMs);
  return shrunk ?? s.outcome;
}

/** One finding per code and place (a function's ensure shared by several steps is one finding). */
function dedupeByPlace(list: readonly FuzzFinding[]): FuzzFinding[] {
  const byPlace = new Map<string, FuzzFinding>();
  for (const f of list) {
    const key = `${f.code}|${f.line}|${f.column}|${f.end_line}|${f.end_column}`;
    const known = byPlace.get(key);
    const calls = (x: FuzzFinding) => x.counterexample?.calls.length ?? Number.MAX_SAFE_INTEGER;
    if (known === undefined || calls(f) < calls(known)) byPlace.set(key, f);
  }
  return [...byPlace.values()];
}

function verdicts(
  target: FuzzTarget,
  flow: FlowIR,
  complete: boolean,
  ends: ReadonlyMap<RunEnd, RunOutcome>,
  found: readonly Observation[],
  coverage: Coverage,
): FlowSoundness {
  const notes = unpassedNotes(target, flow, coverage);
  const held: Verdict = complete ? "proven" : notes.length > 0 ? "suspect" : "not_refuted";
  const stuck = ends.has("stuck") || ends.has("internal");
  // Paths that went round a loop end where they came back: whether every state on the loop can
  // still complete is not what the paths say (the checker decides it on the control model).
  const looped = ends.has("revisit") || ends.has("loop");
  const badOutput = found.some((o) => o.code === "FUZZ-FLOW-OUTPUT" && o.flow === flow.name);
  const noCompletion = found.some((o) => o.code === FUZZ_NO_COMPLETION.code && o.flow === flow.name);
  let option: Verdict = held === "proven" && looped ? "not_refuted" : held;
  if (stuck || noCompletion) option = "violated";
  else if (!coverage.completed.has(flow.name)) {
    // Every path explored and none completed is a proof; otherwise no proof either way.
    option = complete ? "violated" : "suspect";
    notes.push({
      step: null,
      line: lineOf(target, new Locator(target).flow(flow.name).start),
      message: `${complete ? "no path of the exhaustive exploration completes" : "no run of the flow completed"}: ${runEndings(flow, coverage)}`,
    });
  }
  const ranOut = [...(coverage.endings.get(flow.name) ?? [])]
    .filter(([k]) => k.startsWith("budget_exhausted|"))
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    option_to_complete: option,
    proper_completion: badOutput ? "violated" : held,
    no_dead_steps: held,
    notes,
    ...(ranOut > 0 ? { budget_exhausted: ranOut } : {}),
  };
}

/** A note per step of the flow the fuzzer's agent never got accepted, with the interpreter's reason. */
function unpassedNotes(target: FuzzTarget, flow: FlowIR, coverage: Coverage): SoundnessNote[] {
  const locate = new Locator(target);
  const out: SoundnessNote[] = [];
  const never = neverAccepted(coverage);
  for (const step of flow.steps) {
    const why = never.get(stepKey(flow.name, step.id));
    if (why === undefined) continue;
    out.push({
      step: step.id,
      line: lineOf(target, locate.step(flow.name, step.id).start),
      message: `the fuzzer's agent never got step '${step.id}' accepted (the interpreter rejected its best attempt: ${why}); what follows it was not explored`,
    });
  }
  return out;
}

function lineOf(target: FuzzTarget, offset: number): number {
  return target.source.lineOf(offset);
}

/**
 * FUZZ-NO-COMPLETION when the exhaustive exploration (complete and faithful) never completed the
 * flow. The loop that keeps it from completing is, in this order of preference: a loop the runs
 * showed (FUZZ-UNBOUNDED-LOOP, its witness), or the shortest run that came back to an explored
 * state (a revise loop last: each of its rounds is a person's choice).
 */
function neverCompletes(
  flow: FlowIR,
  coverage: Coverage,
  revisitRun: RunOutcome | undefined,
  loopFound: { obs: Observation; outcome: RunOutcome } | undefined,
): { obs: Observation; outcome: RunOutcome } | null {
  if (coverage.completed.has(flow.name)) return null;
  const loop = (route: string, routeStep: string, field: string, steps: readonly string[], call: number) => ({
    code: FUZZ_NO_COMPLETION.code,
    flow: flow.name,
    step: routeStep,
    anchor: { kind: "field", key: field } as const,
    message: FUZZ_NO_COMPLETION.message(
      flow.name,
      route,
      [...steps, steps[0]].map((s) => `'${s}'`).join(" → "),
    ),
    related: steps.slice(0, 10).map((s) => ({
      flow: flow.name,
      step: s,
      anchor: { kind: "step" } as const,
      message: `'${s}' is on the loop`,
    })),
    call,
  });
  if (loopFound !== undefined && loopFound.obs.anchor.kind === "field" && loopFound.obs.step !== null) {
    const { obs } = loopFound;
    const field = obs.anchor.kind === "field" ? obs.anchor.key : "";
    const target = routeOf(flow.stepById.get(obs.step!), field);
    const steps = obs.related.map((r) => r.step);
    return {
      obs: loop(`'${field}: ${target}' of step '${obs.step}'`, obs.step!, field, steps, obs.call),
      outcome: loopFound.outcome,
    };
  }
  const revisit = revisitRun?.revisit;
  if (revisitRun === undefined || revisit == null || revisit.flow !== flow.name) return null;
  const target = routeOf(flow.stepById.get(revisit.cause.step), revisit.cause.field) ?? revisit.step;
  const route = `'${revisit.cause.field}: ${target}' of step '${revisit.cause.step}'`;
  return {
    obs: loop(route, revisit.cause.step, revisit.cause.field, revisit.loop, revisit.call),
    outcome: revisitRun,
  };
}

/**
 * The input combinations exhaustive mode enumerates: finite domains (booleans, `values`) in full,
 * one value otherwise. The enumeration covers the flow's control only when no skip_if reads a step
 * output or an input that was not enumerated in full (those are data, explored by random runs).
 */
function inputMenu(shapes: Shapes, target: FuzzTarget, flow: FlowIR, seed: number) {
  const spec = target.spec;
  let combinations: Record<string, unknown>[] = [{}];
  const reads = pathsReadBySkipIfs(flow);
  // A sub-flow step that checks the child's output depends on data the enumeration does not vary.
  const checksChildren = flow.steps.some(
    (s) => s.kind === "flow" && (s.ensure.length > 0 || s.outputContract !== null || s.outputSchema !== null),
  );
  let complete = !reads.steps && !checksChildren;
  const enumerated = new Set<string>();
  for (const name of flow.inputNames) {
    const decl = (flow.input[name] ?? null) as JsonObject | null;
    const type = decl !== null && typeof decl === "object" ? decl.type : undefined;
    const values =
      decl !== null && typeof decl === "object" && Array.isArray(decl.values) ? decl.values : null;
    const finite =
      values !== null && values.length > 0 ? [...values] : type === "boolean" ? [true, false] : null;
    let domain: unknown[];
    if (finite !== null) {
      domain = finite;
      enumerated.add(name);
    } else {
      domain = fc.sample(shapes.declared(decl), { seed, numRuns: 1 });
      if (reads.inputs.has(name)) complete = false;
    }
    if (optionalInput(spec, flow, name)) domain = [ABSENT, ...domain];
    const next: Record<string, unknown>[] = [];
    for (const c of combinations) {
      for (const v of domain) next.push(v === ABSENT ? c : { ...c, [name]: v });
    }
    combinations = next;
    if (combinations.length > MAX_INPUT_COMBINATIONS) {
      combinations = combinations.slice(0, MAX_INPUT_COMBINATIONS);
      complete = false;
    }
  }
  // Cut combinations leave some value of every input untried.
  if (!complete) enumerated.clear();
  return { combinations, complete, enumerated };
}

/** Which `$` paths the flow's skip_if expressions read. */
function pathsReadBySkipIfs(flow: FlowIR): { steps: boolean; inputs: Set<string> } {
  const out = { steps: false, inputs: new Set<string>() };
  for (const e of expressionsOfFlow(flow)) {
    if (e.kind !== "skip_if") continue;
    walk(e.ast, {
      enter(node) {
        if (node.kind !== "Path") return true;
        if (node.ref === null || node.ref.scope === "steps") out.steps = true;
        else out.inputs.add(node.ref.name.name);
        return true;
      },
    });
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
