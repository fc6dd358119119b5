// What the solvers of one fuzz session share: everything that does not depend on their seed. A
// session aims with two solvers (the random runs' seed and exhaustive mode's own), and each used to
// derive, certify and check every step's derived results and evaluate their context-free ensures
// again; those are the same on every seed (values/derived.ts), so they are made once per session.
import type { CheckedSpec, ExpressionIR, StepIR } from "../checker/index";
import { walk } from "../grammar/index";
import type { FileAccess } from "../stdlib/index";
import { fromJsonValue, type PyValue } from "../stdlib/index";
import { ensureOf } from "./target";
import { certified } from "./values/certificate";
import { Derived } from "./values/derived";
import { raiseFreeTy, resultTy, type Ty, valueTy } from "./values/raise-free";
import type { Shapes } from "./values/shapes";

/** `true` / `false`, or the error message when the expression raised. */
export type Outcome = boolean | string;

export interface Candidate {
  readonly plain: unknown;
  readonly value: PyValue;
  /**
   * The outcomes of the step's ensures that read no paths, by index (the others left undefined),
   * taken at the first scan: a candidate is scanned at every "do it right" choice of every run,
   * and those outcomes are the same in every context (and for every solver that shares it).
   */
  fixedOutcomes?: readonly (Outcome | undefined)[];
}

export class SolverShared {
  readonly derived: Derived;
  private readonly derivedCandidates = new Map<StepIR, readonly Candidate[]>();
  /** Whether a step's ensures read `$.…` paths (else their outcomes depend on the result alone). */
  private readonly pathReading = new Map<StepIR, boolean>();
  private readonly readers = new Map<StepIR, readonly boolean[]>();
  private readonly raiseFree = new Map<StepIR, boolean>();

  constructor(
    readonly spec: CheckedSpec,
    readonly shapes: Shapes,
    readonly files: FileAccess | null,
  ) {
    this.derived = new Derived(spec, shapes.literals);
  }

  /** The step's derived results that pass its contract and output_schema, certified, in a fixed order. */
  derivedConforming(step: StepIR): readonly Candidate[] {
    let list = this.derivedCandidates.get(step);
    if (list === undefined) {
      const conforms = (v: PyValue) => this.shapes.conforms(step, v);
      list = this.derived
        .results(step)
        .map((plain) => certified(step, plain, conforms))
        .map((plain) => ({ plain, value: fromJsonValue(plain) }))
        .filter((c) => conforms(c.value));
      this.derivedCandidates.set(step, list);
    }
    return list;
  }

  /** Whether the step's ensures read paths (`$.input…`, `$.steps…`): their outcomes then depend on the context. */
  readsPaths(step: StepIR): boolean {
    let reads = this.pathReading.get(step);
    if (reads === undefined) {
      reads = ensureOf(this.spec, step).some(readsPath);
      this.pathReading.set(step, reads);
    }
    return reads;
  }

  /**
   * Whether no ensure of the step can raise for a result that passes its contract, whatever the
   * `$` paths read (values/raise-free.ts): no candidate raises then, and none need be drawn to see it.
   */
  ensuresRaiseFree(step: StepIR): boolean {
    let free = this.raiseFree.get(step);
    if (free === undefined) {
      const names = new Map([["result", this.resultTy(step)]]);
      free = ensureOf(this.spec, step).every((e) => raiseFreeTy(this.spec, e.ast, names) !== null);
      this.raiseFree.set(step, free);
    }
    return free;
  }

  /**
   * Whether, with these accumulator names, an iteration's exit criterion cannot raise and its
   * accumulate expression cannot raise nor give anything but a list, for any conforming result.
   */
  reportRaiseFree(step: StepIR, names: ReadonlyMap<string, PyValue>): boolean {
    const types = new Map<string, Ty>([...names].map(([name, v]) => [name, valueTy(v)]));
    types.set("result", this.resultTy(step));
    if (step.exitCriterion !== null && raiseFreeTy(this.spec, step.exitCriterion.ast, types) === null)
      return false;
    if (step.accumulate === null) return true;
    const accumulated = raiseFreeTy(this.spec, step.accumulate.ast, types);
    return accumulated?.every((kind) => kind.k === "list") ?? false;
  }

  private resultTy(step: StepIR): Ty {
    return resultTy(this.shapes.contractOf(step));
  }

  /** Which of the step's ensures read paths, by index. */
  pathReaders(step: StepIR): readonly boolean[] {
    let list = this.readers.get(step);
    if (list === undefined) {
      list = ensureOf(this.spec, step).map(readsPath);
      this.readers.set(step, list);
    }
    return list;
  }
}

/** Whether an expression reads `$.…` paths (else its outcome depends on the names bound alone). */
export function readsPath(e: ExpressionIR): boolean {
  let found = false;
  walk(e.ast, {
    enter(node) {
      if (node.kind === "Path") found = true;
      return !found;
    },
  });
  return found;
}
