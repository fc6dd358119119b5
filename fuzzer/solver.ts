// Results that pass (or fail) a step's checks, found by evaluating candidates with the
// interpreter's own expression evaluator: the agent's "do the work right" move, and the targeted
// search behind FUZZ-ENSURE-UNSATISFIABLE / FUZZ-EXIT-NEVER. A step's candidates are its derived
// results first (values/derived.ts: the same on every seed, so whether a passing, raising or failing
// result exists does not depend on the seed), then results drawn once from its generator with the
// run's seed, so the same seed gives the same results. Every candidate carries the certificate a
// reasoning_template asks for (values/certificate.ts). The derived candidates, and what does not
// depend on the seed, are shared by the solvers of a session (solver-shared.ts); the drawn ones are
// drawn only when a search gets past the derived ones.
// Nothing here decides a finding about a run: findings come from the interpreter's responses.
import fc from "fast-check";
import type { CheckedSpec, ExpressionIR, StepIR } from "../checker/index";
import type { Expr } from "../grammar/index";
import { walk } from "../grammar/index";
import { type CompiledExpression, compileExpression, evaluate, type PathSource } from "../interpreter/index";
import type { FileAccess } from "../stdlib/index";
import {
  fromJsonValue,
  makeNamespace,
  PyDict,
  PyError,
  PyFloat,
  type PyValue,
  truthy,
} from "../stdlib/index";
import { type Candidate, type Outcome, readsPath, SolverShared } from "./solver-shared";
import { ensureOf } from "./target";
import { hasCertificate } from "./values/certificate";
import type { Derived } from "./values/derived";
import type { Shapes } from "./values/shapes";

export type { Outcome } from "./solver-shared";

const CANDIDATES = 300;
const SCAN = 80;

/** 0 when a value meets the goal, negative otherwise (higher is closer). */
export type Goal = (value: PyValue) => number;

/** A goal scored for a new value, or for one of the step's candidates (its context-free outcomes kept). */
interface CandidateGoal {
  readonly value: Goal;
  readonly candidate: (c: Candidate) => number;
}

const compiled = new WeakMap<Expr, CompiledExpression>();

function code(e: ExpressionIR): CompiledExpression {
  let c = compiled.get(e.ast);
  if (c === undefined) {
    c = compileExpression(e.ast);
    compiled.set(e.ast, c);
  }
  return c;
}

/** The value bound to `result` / `item` (a namespace for an object, docs/reference/language.md §10.6). */
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

export class Solver {
  /** The drawn candidates of each step (after the derived ones), drawn when a search first needs them. */
  private readonly drawnCandidates = new Map<StepIR, readonly Candidate[]>();
  private readonly candidates = new Map<StepIR, readonly Candidate[]>();
  private readonly fixedPass = new Map<StepIR, Candidate | null>();
  private readonly contractSamples = new Map<string, readonly unknown[]>();
  /** `raising` / `failing` of steps whose ensures read no paths: the same answer in every context. */
  private readonly fixedRaise = new Map<StepIR, unknown | null>();
  private readonly fixedFail = new Map<StepIR, unknown | null>();
  /** `exiting` / `raisingReport` answers by step and names (namesFree). */
  private readonly byNames = new Map<StepIR, Map<string, unknown | null>>();
  /** The parent steps of the goals parentAccepts made whose ensures read no paths. */
  private readonly contextFreeGoals = new WeakMap<Goal, StepIR>();
  /** `passing` of a child flow's last step with such a parent's checks, by step and parent, then offset. */
  private readonly parentPass = new Map<StepIR, Map<StepIR, Map<number, Candidate | null>>>();

  constructor(
    private readonly spec: CheckedSpec,
    private readonly shapes: Shapes,
    private readonly seed: number,
    private readonly files: FileAccess | null,
    private readonly shared: SolverShared = new SolverShared(spec, shapes, files),
  ) {}

  /** A solver of the same spec, shapes and files with another seed, sharing what no seed changes. */
  withSeed(seed: number): Solver {
    return new Solver(this.spec, this.shapes, seed, this.files, this.shared);
  }

  get derived(): Derived {
    return this.shared.derived;
  }

  /**
   * Candidates that pass the step's contract and output_schema (context-free), in a fixed order:
   * the derived ones (seed-independent) first, then the drawn ones.
   */
  conforming(step: StepIR): readonly Candidate[] {
    let list = this.candidates.get(step);
    if (list === undefined) {
      list = [...this.shared.derivedConforming(step), ...this.drawn(step)];
      this.candidates.set(step, list);
    }
    return list;
  }

  /** The conforming candidates drawn from the step's generator with this solver's seed. */
  private drawn(step: StepIR): readonly Candidate[] {
    let list = this.drawnCandidates.get(step);
    if (list === undefined) {
      list = fc
        .sample(this.shapes.result(step), { seed: this.seed ^ (step.index * 7919), numRuns: CANDIDATES })
        .map((plain) => ({ plain, value: fromJsonValue(plain) }))
        .filter((c) => this.conforms(step, c.value));
      this.drawnCandidates.set(step, list);
    }
    return list;
  }

  /** `conforming(step)` in order, drawing only when a caller gets past the derived ones. */
  private *each(step: StepIR): Generator<Candidate> {
    yield* this.shared.derivedConforming(step);
    yield* this.drawn(step);
  }

  /** The first of `conforming(step)`, or undefined when there is none. */
  firstConforming(step: StepIR): Candidate | undefined {
    return this.shared.derivedConforming(step)[0] ?? this.drawn(step)[0];
  }

  /** The derived candidates of the step: the first `derivedCount(step)` of `conforming(step)`, undrawn. */
  firstCandidates(step: StepIR): readonly Candidate[] {
    return this.shared.derivedConforming(step);
  }

  /** How many of `conforming(step)` are derived (they come first). */
  derivedCount(step: StepIR): number {
    return this.shared.derivedConforming(step).length;
  }

  /**
   * Values of a named contract in a fixed order (a debate's arguments: docs/reference/runtime.md §23.15);
   * empty for an unknown name. Context-free, like `conforming`.
   */
  contractValues(name: string): readonly unknown[] {
    let list = this.contractSamples.get(name);
    if (list === undefined) {
      const contract = this.spec.contracts.get(name);
      list =
        contract === undefined
          ? []
          : fc.sample(this.shapes.contract(contract), { seed: this.seed ^ name.length, numRuns: CANDIDATES });
      this.contractSamples.set(name, list);
    }
    return list;
  }

  conforms(step: StepIR, value: PyValue): boolean {
    return this.shapes.conforms(step, value);
  }

  /** Each ensure expression's outcome for `value`. */
  ensureOutcomes(step: StepIR, value: PyValue, paths: PathSource): Outcome[] {
    const names = new Map<string, PyValue>([["result", bindable(value)]]);
    return ensureOf(this.spec, step).map((e) => evaluateExpr(e, names, paths, this.files));
  }

  /**
   * `ensureOutcomes` of a conforming candidate: the ensures that read no paths are evaluated once
   * per candidate (evaluation is deterministic), the others in this context.
   */
  private candidateOutcomes(step: StepIR, c: Candidate, paths: PathSource): Outcome[] {
    const ensures = ensureOf(this.spec, step);
    if (!this.readsPaths(step)) {
      c.fixedOutcomes ??= this.ensureOutcomes(step, c.value, paths);
      return c.fixedOutcomes as Outcome[];
    }
    const reading = this.pathReaders(step);
    let names: Map<string, PyValue> | undefined;
    const evaluateAt = (i: number): Outcome => {
      names ??= new Map<string, PyValue>([["result", bindable(c.value)]]);
      return evaluateExpr(ensures[i]!, names, paths, this.files);
    };
    if (c.fixedOutcomes === undefined) {
      c.fixedOutcomes = ensures.map((_, i) => (reading[i] ? undefined : evaluateAt(i)));
    }
    const fixed = c.fixedOutcomes;
    return ensures.map((_, i) => fixed[i] ?? evaluateAt(i));
  }

  private pathReaders(step: StepIR): readonly boolean[] {
    return this.shared.pathReaders(step);
  }

  /** The parent step's checks on a child flow's output: its output contract and its ensures. */
  parentAccepts(parent: StepIR, paths: PathSource): Goal {
    const goal: Goal = (value) => {
      const outcomes = this.ensureOutcomes(parent, value, paths);
      return (
        (this.conforms(parent, value) ? 1 : 0) +
        outcomes.filter((o) => o === true).length -
        outcomes.length -
        1
      );
    };
    if (!this.readsPaths(parent)) this.contextFreeGoals.set(goal, parent);
    return goal;
  }

  /** How far `value` is from passing the step's certificate and ensures (and `also`): 0 when it passes. */
  private goal(step: StepIR, paths: PathSource, also?: Goal): CandidateGoal {
    const score = (value: PyValue, outcomes: readonly Outcome[]) => {
      const own = outcomes.filter((o) => o === true).length - outcomes.length;
      const certificate = hasCertificate(step, value) ? 0 : -1;
      return own + certificate + (also === undefined ? 0 : also(value));
    };
    return {
      value: (value) => score(value, this.ensureOutcomes(step, value, paths)),
      candidate: (c) => score(c.value, this.candidateOutcomes(step, c, paths)),
    };
  }

  /**
   * A conforming result that passes every ensure in this context (and `also`: for the last step
   * of a child flow, the parent step's checks of the child's output), or null. Candidates are tried
   * in order from `offset`; when none passes, the best one is improved field by field with the
   * other candidates' values (ensures are mostly conjunctions of conditions on single fields).
   */
  passing(step: StepIR, paths: PathSource, offset = 0, also?: Goal): unknown | null {
    const fixed = also === undefined && !this.readsPaths(step);
    if (fixed && this.fixedPass.has(step)) return this.fixedPass.get(step)?.plain ?? null;
    // With a parent's checks that read no paths either, the search depends on the step, the
    // parent and the offset alone: a child flow's last step is searched again at each pass.
    const parent = also === undefined || this.readsPaths(step) ? undefined : this.contextFreeGoals.get(also);
    let memo: Map<number, Candidate | null> | undefined;
    if (parent !== undefined) {
      let byParent = this.parentPass.get(step);
      if (byParent === undefined) {
        byParent = new Map();
        this.parentPass.set(step, byParent);
      }
      memo = byParent.get(parent);
      if (memo === undefined) {
        memo = new Map();
        byParent.set(parent, memo);
      }
      if (memo.has(offset)) return memo.get(offset)?.plain ?? null;
    }
    const found = this.search(step, this.goal(step, paths, also), offset, this.equalityHints(step, paths));
    if (fixed) this.fixedPass.set(step, found);
    memo?.set(offset, found);
    return found?.plain ?? null;
  }

  private search(
    step: StepIR,
    goal: CandidateGoal,
    offset: number,
    hints: readonly Record<string, unknown>[] = [],
  ): Candidate | null {
    const top: { best: Candidate | null; score: number } = { best: null, score: Number.NEGATIVE_INFINITY };
    const scan = (c: Candidate): boolean => {
      const score = goal.candidate(c);
      if (score === 0) return true;
      if (score > top.score) {
        top.best = c;
        top.score = score;
      }
      return false;
    };
    // Every derived candidate (rotated by `offset`, so draws vary), a bounded scan of the drawn ones
    // (this runs at every "do it right" choice of a run), then the field-wise repair. The drawn
    // ones are drawn only here, when no derived candidate passed.
    const derivedList = this.shared.derivedConforming(step);
    const derived = derivedList.length;
    for (let i = 0; i < derived; i++) {
      const c = derivedList[(i + offset) % derived]!;
      if (scan(c)) return c;
    }
    const list = this.conforming(step);
    const drawn = list.length - derived;
    for (let i = 0; i < Math.min(drawn, SCAN); i++) {
      const c = list[derived + ((i + offset) % drawn)]!;
      if (scan(c)) return c;
    }
    const best = top.best;
    let bestScore = top.score;
    if (best === null || best.plain === null || typeof best.plain !== "object" || Array.isArray(best.plain))
      return null;
    let current = best.plain as Record<string, unknown>;
    const donors = [
      ...hints,
      ...list
        .slice(0, derived + 60)
        .map((c) => c.plain)
        .filter(
          (p): p is Record<string, unknown> => p !== null && typeof p === "object" && !Array.isArray(p),
        ),
    ];
    const keys = [...new Set(donors.flatMap((d) => Object.keys(d)))];
    // By key, the texts of the values tried on `current` as it is now. A value tried again, or
    // equal to current's own, makes a result equal to one already scored against this current, so
    // the same score (evaluation is deterministic), which changes nothing: donors repeat values
    // (enums, booleans, derived ones) and each try evaluates every ensure.
    const tried = new Map<string, Set<string>>();
    for (let sweep = 0; sweep < 2; sweep++) {
      for (const key of keys) {
        for (const donor of donors) {
          if (!(key in donor)) continue;
          const text = valueText(donor[key]);
          let texts = tried.get(key);
          if (texts === undefined) {
            texts = new Set(Object.hasOwn(current, key) ? [valueText(current[key])] : []);
            tried.set(key, texts);
          }
          if (texts.has(text)) continue;
          texts.add(text);
          const next = { ...current, [key]: donor[key] };
          const value = fromJsonValue(next);
          if (!this.conforms(step, value)) continue;
          const score = goal.value(value);
          if (score === 0) return { plain: next, value };
          if (score > bestScore) {
            current = next;
            bestScore = score;
            tried.clear();
          }
        }
      }
    }
    return null;
  }

  /**
   * Field values the ensures ask for by equality with something computed from the context:
   * `result.tag == 'v' + $.input.version` gives `{tag: 'v1.2'}` for the version at hand.
   */
  equalityHints(step: StepIR, paths: PathSource): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    const names = new Map<string, PyValue>();
    for (const e of ensureOf(this.spec, step)) {
      walk(e.ast, {
        enter: (node) => {
          if (node.kind !== "Compare" || node.ops.length !== 1 || node.ops[0]!.op !== "==") return true;
          const sides = [node.left, node.comparators[0]!];
          for (const [i, side] of sides.entries()) {
            const other = sides[1 - i]!;
            if (side.kind !== "Attribute" || side.value.kind !== "Name" || side.value.id !== "result")
              continue;
            if (mentionsResult(other)) continue;
            try {
              const v = evaluate(compileExpression(other), names, { paths, files: this.files });
              if (typeof v === "string" || typeof v === "number" || typeof v === "boolean")
                out.push({ [side.attr]: v });
            } catch (err) {
              if (!(err instanceof PyError)) throw err;
            }
          }
          return true;
        },
      });
    }
    return out;
  }

  private readsPaths(step: StepIR): boolean {
    return this.shared.readsPaths(step);
  }

  /**
   * `find` of the step in this context, kept in `memo` when the ensures read no paths: the scan
   * over every candidate then gives the same answer each time (evaluation is deterministic).
   */
  private contextFree(
    memo: Map<StepIR, unknown | null>,
    step: StepIR,
    find: () => unknown | null,
  ): unknown | null {
    if (this.readsPaths(step)) return find();
    if (memo.has(step)) return memo.get(step);
    const found = find();
    memo.set(step, found);
    return found;
  }

  /** A conforming result for which some ensure raises in this context, or null. */
  raising(step: StepIR, paths: PathSource): unknown | null {
    // The scan would find none (and draw the step's random candidates to see it).
    if (this.shared.ensuresRaiseFree(step)) return null;
    return this.contextFree(this.fixedRaise, step, () => {
      for (const c of this.each(step)) {
        if (this.candidateOutcomes(step, c, paths).some((o) => typeof o === "string")) return c.plain;
      }
      return null;
    });
  }

  /**
   * A conforming iteration result for which the exit criterion raises, or the accumulate
   * expression raises or gives a non-list, with these accumulator names; or null.
   */
  raisingReport(step: StepIR, names: ReadonlyMap<string, PyValue>, paths: PathSource): unknown | null {
    const exprs = [step.exitCriterion, step.accumulate].filter((e) => e !== null);
    return this.namesFree(step, "raise", exprs, names, () =>
      this.shared.reportRaiseFree(step, names) ? null : this.raisingReportIn(step, names, paths),
    );
  }

  /**
   * `find` with these names, kept when the expressions read no paths and the names are plain
   * numbers, texts, booleans, None or empty lists (an iteration's accumulator names): the scan
   * over every candidate then gives the same answer for the same names (evaluation is deterministic).
   */
  private namesFree(
    step: StepIR,
    what: string,
    exprs: readonly ExpressionIR[],
    names: ReadonlyMap<string, PyValue>,
    find: () => unknown | null,
  ): unknown | null {
    if (exprs.some(readsPath)) return find();
    const parts = [what];
    for (const [name, v] of names) {
      if (v === null || typeof v === "boolean" || typeof v === "number" || typeof v === "bigint")
        parts.push(`${name}=${typeof v}:${String(v)}`);
      else if (typeof v === "string") parts.push(`${name}=string:${JSON.stringify(v)}`);
      else if (Array.isArray(v) && v.length === 0) parts.push(`${name}=[]`);
      else return find();
    }
    const key = parts.join("\u0000");
    let memo = this.byNames.get(step);
    if (memo === undefined) {
      memo = new Map();
      this.byNames.set(step, memo);
    }
    if (memo.has(key)) return memo.get(key);
    const found = find();
    memo.set(key, found);
    return found;
  }

  private raisingReportIn(
    step: StepIR,
    names: ReadonlyMap<string, PyValue>,
    paths: PathSource,
  ): unknown | null {
    for (const c of this.each(step)) {
      const all = new Map(names);
      all.set("result", bindable(c.value));
      if (
        step.exitCriterion !== null &&
        typeof evaluateExpr(step.exitCriterion, all, paths, this.files) === "string"
      ) {
        return c.plain;
      }
      if (step.accumulate !== null) {
        try {
          const v = evaluate(code(step.accumulate), all, { paths, files: this.files });
          if (!Array.isArray(v)) return c.plain;
        } catch (err) {
          if (!(err instanceof PyError)) throw err;
          return c.plain;
        }
      }
    }
    return null;
  }

  /** A conforming result that fails some ensure without raising, or null. */
  failing(step: StepIR, paths: PathSource): unknown | null {
    return this.contextFree(this.fixedFail, step, () => {
      for (const c of this.each(step)) {
        const outcomes = this.candidateOutcomes(step, c, paths);
        if (outcomes.some((o) => o === false) && outcomes.every((o) => typeof o === "boolean"))
          return c.plain;
      }
      return null;
    });
  }

  /** A conforming result for which the exit criterion holds with these accumulator names, or null. */
  /**
   * For a scored iteration (docs/reference/runtime.md §25.2): a report whose `score_expr` goes
   * `up` from `previous` (the least score above it), `down` (the greatest below it), stays the
   * `same`, or is no number (`none`: it raises or gives a bool, text or None); any numeric score
   * when there is no previous one. Null when no candidate does.
   */
  scored(step: StepIR, want: ScoreMove, previous: number | null, paths: PathSource): unknown | null {
    const expr = step.scoreExpr;
    if (expr === null) return null;
    let best: { plain: unknown; score: number } | null = null;
    for (const c of this.each(step)) {
      const score = scoreOf(expr, c.value, paths, this.files);
      if (want === "none") {
        if (score === null) return c.plain;
        continue;
      }
      if (score === null) continue;
      if (previous === null || (want === "same" && score === previous)) return c.plain;
      const better =
        want === "up"
          ? score > previous && (best === null || score < best.score)
          : want === "down" && score < previous && (best === null || score > best.score);
      if (better) best = { plain: c.plain, score };
    }
    return best?.plain ?? null;
  }

  /** The score of a candidate's value, as scoreOf gives it; null without a `score_expr`. */
  scoreOfValue(step: StepIR, value: PyValue, paths: PathSource): number | null {
    return step.scoreExpr === null ? null : scoreOf(step.scoreExpr, value, paths, this.files);
  }

  /** The score of a reported result (JSON), as scoreOf gives it; null without a `score_expr`. */
  scoreOfReport(step: StepIR, result: unknown, paths: PathSource): number | null {
    return step.scoreExpr === null ? null : scoreOf(step.scoreExpr, fromJsonValue(result), paths, this.files);
  }

  exiting(step: StepIR, names: ReadonlyMap<string, PyValue>, paths: PathSource): unknown | null {
    const criterion = step.exitCriterion;
    if (criterion === null) return null;
    return this.namesFree(step, "exit", [criterion], names, () => {
      for (const c of this.each(step)) {
        const all = new Map(names);
        all.set("result", bindable(c.value));
        if (evaluateExpr(criterion, all, paths, this.files) === true) return c.plain;
      }
      return null;
    });
  }
}

/** Where a scored iteration's next report takes its score, relative to the previous one. */
export type ScoreMove = "up" | "down" | "same" | "none";

/** The score `score_expr` gives `result`, as the engine takes it (an int as a float); null when it is no number or raises. */
function scoreOf(
  expr: ExpressionIR,
  result: PyValue,
  paths: PathSource,
  files: FileAccess | null,
): number | null {
  let v: PyValue;
  try {
    v = evaluate(code(expr), new Map([["result", bindable(result)]]), { paths, files });
  } catch (err) {
    if (err instanceof PyError) return null;
    throw err;
  }
  if (typeof v === "boolean") return null;
  if (v instanceof PyFloat) return v.v;
  if (typeof v === "number" || typeof v === "bigint") {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/**
 * A text equal for two plain values exactly when they are the same JSON data with their keys in
 * the same order (so convert to the same value): unlike JSON text it tells -0, NaN, the infinities,
 * bigints and undefined members apart, and a number from a string.
 */
function valueText(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (typeof x === "number") return `n${Object.is(x, -0) ? "-0" : String(x)}`;
    if (typeof x === "string") return `s${x}`;
    if (typeof x === "bigint") return `b${String(x)}`;
    if (x === undefined) return "u";
    return x;
  });
}

function mentionsResult(e: Expr): boolean {
  let found = false;
  walk(e, {
    enter(node) {
      if (node.kind === "Name" && (node.id === "result" || node.id === "item")) found = true;
      return !found;
    },
  });
  return found;
}
