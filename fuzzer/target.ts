// What the fuzzer knows about a spec: the checked IR (what runs), the model and source (where
// findings are located), and the literals of its expressions (values the generators mix in so
// that comparisons go both ways). Built only from a spec that checks without errors.

import type {
  CheckedSpec,
  CheckResult,
  ExpressionIR,
  FlowIR,
  SourceRange,
  SpecModel,
  SpecSource,
  StepIR,
} from "../checker/index";
import { entityRange, keyRange, stepEntityRange, valueRange } from "../checker/index";

import { walk } from "../grammar/index";
import { PyFloat, pythonExample } from "../stdlib/index";

export interface Literals {
  /** String literals of every expression, sorted, unique. */
  readonly strings: readonly string[];
  /** Numeric literals (ints and floats as JS numbers), sorted, unique. */
  readonly numbers: readonly number[];
}

export interface FuzzTarget {
  readonly text: string;
  readonly source: SpecSource;
  readonly spec: CheckedSpec;
  readonly model: SpecModel;
  readonly literals: Literals;
}

/** The target of a valid spec; null when the spec has errors. */
export function fuzzTarget(result: CheckResult): FuzzTarget | null {
  const spec = result.ir;
  if (!result.valid || spec === null || result.model === null) return null;
  return {
    text: result.source.text,
    source: result.source,
    spec,
    model: result.model,
    literals: collectLiterals(spec),
  };
}

/** The ensure list a step's results are checked with: its function's for a function step. */
export function ensureOf(spec: CheckedSpec, step: StepIR): readonly ExpressionIR[] {
  if (step.kind === "function" && step.function !== null)
    return spec.functions.get(step.function)?.ensure ?? [];
  return step.ensure;
}

/** Every expression of the spec (functions' ensures and every step's expressions). */
function* expressionsOf(spec: CheckedSpec): Generator<ExpressionIR> {
  for (const fn of spec.functions.values()) yield* fn.ensure;
  for (const flow of spec.flows.values()) yield* expressionsOfFlow(flow);
}

/** The expressions of one flow's steps (not the functions' ensures). */
export function* expressionsOfFlow(flow: FlowIR): Generator<ExpressionIR> {
  for (const step of flow.steps) yield* stepExpressions(step);
}

/** A step's expressions: ensure, skip_if, the iteration ones and those of our member steps. */
function* stepExpressions(step: StepIR): Generator<ExpressionIR> {
  yield* step.ensure;
  const single = [
    step.skipIf,
    step.exitCriterion,
    step.accumulate,
    step.accumulateKey,
    step.parallel?.validate ?? null,
    step.quorum?.agreeOn ?? null,
    step.debate?.converge ?? null,
  ];
  for (const e of single) if (e !== null) yield e;
}

function collectLiterals(spec: CheckedSpec): Literals {
  const strings = new Set<string>();
  const numbers = new Set<number>();
  for (const e of expressionsOf(spec)) {
    walk(e.ast, {
      enter(node) {
        if (node.kind !== "Constant") return true;
        const v = node.value;
        if (typeof v === "string") strings.add(v);
        else if (typeof v === "number") numbers.add(v);
        else if (v instanceof PyFloat && Number.isFinite(v.v)) numbers.add(v.v);
        return true;
      },
    });
  }
  // A text each guardrail finds: a result holding it is blocked (docs/reference/runtime.md §25.1).
  for (const pattern of guardrailsOf(spec)) {
    const example = pythonExample(pattern);
    if (example !== null && example !== "") strings.add(example);
  }
  return {
    strings: [...strings].sort(),
    numbers: [...numbers].sort((a, b) => a - b),
  };
}

function* guardrailsOf(spec: CheckedSpec): Generator<string> {
  for (const fn of spec.functions.values()) yield* fn.guardrails;
  for (const flow of spec.flows.values()) for (const step of flow.steps) yield* step.guardrails;
}

/** Where findings point (docs/reference/language.md §9.2 anchors). */
export class Locator {
  constructor(private readonly target: FuzzTarget) {}

  private stepDecl(flow: string, step: string) {
    return this.target.model.flowByName.get(flow)?.stepById.get(step);
  }

  /** The flow's key (`E`). */
  flow(flow: string): SourceRange {
    const decl = this.target.model.flowByName.get(flow);
    return decl === undefined ? { start: 0, end: 0 } : entityRange(decl.decl);
  }

  /** The step's `E` anchor: its id on the step's first line. */
  step(flow: string, step: string): SourceRange {
    const decl = this.stepDecl(flow, step);
    const flowDecl = this.target.model.flowByName.get(flow);
    if (decl === undefined || flowDecl?.stepsNode == null) return this.flow(flow);
    return stepEntityRange(this.target.source, flowDecl.stepsNode, decl.index);
  }

  /** The value of one of the step's fields (a route, skip_if, …), else the step. */
  stepField(flow: string, step: string, key: string): SourceRange {
    const entry = this.stepDecl(flow, step)?.entry(key);
    return entry === undefined ? this.step(flow, step) : valueRange(this.target.source, entry);
  }

  /** The value of `inputs.<name>` of a step. */
  input(flow: string, step: string, name: string): SourceRange {
    const inputs = this.stepDecl(flow, step)?.entry("inputs");
    const entry = inputs?.value.kind === "map" ? inputs.value.get(name) : undefined;
    return entry === undefined ? this.stepField(flow, step, "inputs") : valueRange(this.target.source, entry);
  }

  /** The `ensure` key a step's results are checked with (the function's for a function step). */
  ensureKey(flow: string, step: string): SourceRange {
    const decl = this.stepDecl(flow, step);
    const owner = decl?.kind === "function" && decl.fn !== null ? decl.fn : decl;
    const entry = owner?.entry("ensure");
    return entry === undefined ? this.step(flow, step) : keyRange(entry);
  }

  /** The flow's `output` value. */
  flowOutput(flow: string): SourceRange {
    const entry = this.target.model.flowByName.get(flow)?.entry("output");
    return entry === undefined ? this.flow(flow) : valueRange(this.target.source, entry);
  }
}
