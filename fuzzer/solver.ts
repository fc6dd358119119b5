// Results that pass (or fail) a step's checks, found by evaluating candidates with the
// interpreter's own expression evaluator: the agent's "do the work right" move, and the targeted
// search behind FUZZ-ENSURE-UNSATISFIABLE / FUZZ-EXIT-NEVER. Candidates are drawn once per step
// from the step's result generator with a fixed seed, so the same seed gives the same results.
// Nothing here decides a finding about a run: findings come from the interpreter's responses.
import fc from "fast-check";
import type { CheckedSpec, ExpressionIR, StepIR } from "../checker/ir/types";
import type { Expr } from "../grammar/ast";
import { walk } from "../grammar/walk";
import {
  type CompiledExpression,
  checkContract,
  checkOutputSchema,
  compileExpression,
  evaluate,
  type PathSource,
} from "../interpreter/index";
import type { FileAccess } from "../stdlib/files";
import { PyError } from "../stdlib/values/errors";
import { fromJsonValue } from "../stdlib/values/json";
import { makeNamespace } from "../stdlib/values/namespace";
import { truthy } from "../stdlib/values/truth";
import { PyDict, type PyValue } from "../stdlib/values/value";
import { ensureOf } from "./target";
import type { Shapes } from "./values/shapes";

const CANDIDATES = 300;

interface Candidate {
  readonly plain: unknown;
  readonly value: PyValue;
}

/** `true` / `false`, or the error message when the expression raised. */
export type Outcome = boolean | string;

const compiled = new WeakMap<Expr, CompiledExpression>();

function code(e: ExpressionIR): CompiledExpression {
  let c = compiled.get(e.ast);
  if (c === undefined) {
    c = compileExpression(e.ast);
    compiled.set(e.ast, c);
  }
  return c;
}

/** The value bound to `result` / `item` (a namespace for an object, language.md §10.6). */
export function bindable(v: PyValue): PyValue {
  return v instanceof PyDict ? makeNamespace(v) : v;
}

export function evaluateExpr(
  e: ExpressionIR,
  names: ReadonlyMap<string, PyValue>,
  paths: PathSource,
  files: FileAccess | null,
): Outcome {
  try {
    return truthy(evaluate(code(e), names, { paths, files }));
  } catch (err) {
    if (err instanceof PyError) return err.message;
    throw err;
  }
}

function readsPaths(exprs: readonly ExpressionIR[]): boolean {
  let found = false;
  for (const e of exprs) {
    walk(e.ast, {
      enter(node) {
        if (node.kind === "Path") found = true;
        return !found;
      },
    });
  }
  return found;
}

export class Solver {
  private readonly candidates = new Map<StepIR, readonly Candidate[]>();
  private readonly fixedPass = new Map<StepIR, Candidate | null>();

  constructor(
    private readonly spec: CheckedSpec,
    private readonly shapes: Shapes,
    private readonly seed: number,
    private readonly files: FileAccess | null,
  ) {}

  /** Candidates that pass the step's contract and output_schema (context-free), in a fixed order. */
  conforming(step: StepIR): readonly Candidate[] {
    let list = this.candidates.get(step);
    if (list === undefined) {
      const plains = fc.sample(this.shapes.result(step), {
        seed: this.seed ^ (step.index * 7919),
        numRuns: CANDIDATES,
      });
      list = plains
        .map((plain) => ({ plain, value: fromJsonValue(plain) }))
        .filter((c) => this.conforms(step, c.value));
      this.candidates.set(step, list);
    }
    return list;
  }

  conforms(step: StepIR, value: PyValue): boolean {
    const contract = this.shapes.contractOf(step);
    if (contract !== null && checkContract(value, contract, this.spec).length > 0) return false;
    return step.outputSchema === null || checkOutputSchema(value, step.outputSchema).length === 0;
  }

  /** Each ensure expression's outcome for `value`. */
  ensureOutcomes(step: StepIR, value: PyValue, paths: PathSource): Outcome[] {
    const names = new Map<string, PyValue>([["result", bindable(value)]]);
    return ensureOf(this.spec, step).map((e) => evaluateExpr(e, names, paths, this.files));
  }

  /** A conforming result that passes every ensure in this context, or null. */
  passing(step: StepIR, paths: PathSource, offset = 0): unknown | null {
    const ensures = ensureOf(this.spec, step);
    const fixed = !readsPaths(ensures);
    if (fixed && this.fixedPass.has(step)) return this.fixedPass.get(step)?.plain ?? null;
    const list = this.conforming(step);
    let found: Candidate | null = null;
    for (let i = 0; i < list.length; i++) {
      const c = list[(i + offset) % list.length]!;
      if (this.ensureOutcomes(step, c.value, paths).every((o) => o === true)) {
        found = c;
        break;
      }
    }
    if (fixed) this.fixedPass.set(step, found);
    return found?.plain ?? null;
  }

  /** A conforming result that fails some ensure without raising, or null. */
  failing(step: StepIR, paths: PathSource): unknown | null {
    for (const c of this.conforming(step)) {
      const outcomes = this.ensureOutcomes(step, c.value, paths);
      if (outcomes.some((o) => o === false) && outcomes.every((o) => typeof o === "boolean")) return c.plain;
    }
    return null;
  }

  /** A conforming result for which the exit criterion holds with these accumulator names, or null. */
  exiting(step: StepIR, names: ReadonlyMap<string, PyValue>, paths: PathSource): unknown | null {
    const criterion = step.exitCriterion;
    if (criterion === null) return null;
    for (const c of this.conforming(step)) {
      const all = new Map(names);
      all.set("result", bindable(c.value));
      if (evaluateExpr(criterion, all, paths, this.files) === true) return c.plain;
    }
    return null;
  }
}
