// The expression-and-reference phase over a whole model (docs/reference/language.md §9.3 phase 4): every step's
// inputs and expressions, then every function's ensure, once per using step. Result types, stored
// output types and accumulate checks are computed lazily and memoised, because a `$.steps` path
// in one step needs the types of another (the accumulate element type included).
import type { PathRef } from "../../grammar/ast";
import type { ParseResult } from "../../grammar/parse";
import { ANY, NONE, recordOf, type Type } from "../../stdlib/types/type";
import type { ExprEnvironment, ExpressionKind } from "../expr/types";
import type { FunctionDecl, SpecModel, StepDecl } from "../model/types";
import type { Reporter } from "../report";
import { functionEnsureMisplaced, misplacedExpressionFields } from "../rules/placement";
import type { ScalarNode } from "../yaml/nodes";
import { checkPosition, type RefScope } from "./check-position";
import { contractRecords } from "./contracts";
import { argumentType, convergeEnvironment, convergeNode } from "./debate-converge";
import { elementType, environment } from "./environment";
import { checkInputs } from "./inputs";
import { kindExpressions } from "./kind-expressions";
import { commonProperties, outputSchemaProperties } from "./output-schema";
import { checkParallelSource } from "./parallel-source";
import { memberResultType, validateEnvironment, validateNode } from "./parallel-validate";
import { resolveRef } from "./path-types";
import {
  reportStagePaths,
  sourceElementType,
  stagePredicateEnvironment,
  stagePredicateNames,
  stagePredicateNodes,
  stageReporter,
} from "./pipeline-stages";
import { checkProperties } from "./properties";
import { reportUnhashableAgreeOn } from "./quorum-agree-on";
import { dependsOn } from "./reach";
import { withAccumulatorFields } from "./records";
import { functionResultType, type Records, stepResultType } from "./result-type";
import type {
  CheckedExpression,
  CheckedInput,
  CheckedSource,
  ExpressionTable,
  StagePredicates,
  StepExpressions,
} from "./types";

type IdStep = StepDecl & { readonly id: string };

interface MutableStepExpressions {
  skipIf: CheckedExpression | null;
  ensure: CheckedExpression[];
  exitCriterion: CheckedExpression | null;
  accumulate: CheckedExpression | null;
  accumulateKey: CheckedExpression | null;
  scoreExpr: CheckedExpression | null;
  agreeOn: CheckedExpression | null;
}

const EMPTY_STEP: StepExpressions = Object.freeze({
  skipIf: null,
  ensure: [],
  exitCriterion: null,
  accumulate: null,
  accumulateKey: null,
  scoreExpr: null,
});

function hasId(step: StepDecl): step is IdStep {
  return step.id !== null;
}

/** The static type of a well-formed `$` path read from `refs` (problems are reported separately). */
function refType(refs: RefScope, ref: PathRef): Type {
  return resolveRef(ref, refs.flow, refs.outputType).type;
}

export class ExpressionPhase {
  private readonly records: Records;
  private readonly resultTypes = new Map<StepDecl, Type>();
  private readonly outputTypes = new Map<StepDecl, Type>();
  private readonly accumulates = new Map<StepDecl, CheckedExpression | null>();
  private readonly accumulating = new Set<StepDecl>();
  private readonly steps = new Map<StepDecl, MutableStepExpressions>();
  private readonly functions = new Map<FunctionDecl, CheckedExpression[]>();
  private readonly inputs = new Map<StepDecl, CheckedInput[]>();
  private readonly sources = new Map<StepDecl, CheckedSource | null>();
  private readonly validates = new Map<StepDecl, CheckedExpression>();
  /** Debate steps' converge expressions (docs/design/concurrency-constructs.md §5). */
  private readonly converges = new Map<StepDecl, CheckedExpression>();
  /** Pipeline steps' stage predicates, by stage index (docs/reference/language.md §6.9). */
  private readonly stagePredicates = new Map<StepDecl, StagePredicates[]>();

  constructor(
    private readonly model: SpecModel,
    private readonly reporter: Reporter,
    private readonly parse: (text: string) => ParseResult,
  ) {
    this.records = contractRecords(model);
  }

  run(): ExpressionTable {
    for (const flow of this.model.flows) {
      for (const step of flow.steps) {
        if (!hasId(step)) continue;
        this.inputs.set(step, checkInputs(this.model, this.reporter, step, this.outputType));
        const own = kindExpressions(step);
        if (own.includes("source")) {
          this.sources.set(step, checkParallelSource(this.model, this.reporter, step, this.outputType));
        }
        if (own.includes("validate")) this.checkValidate(step);
        if (own.includes("converge")) this.checkConverge(step);
        if (own.includes("stages")) this.checkStagePredicates(step);
        this.checkStep(step);
      }
    }
    for (const fn of this.model.functions) this.checkFunctionEnsure(fn);
    const properties = checkProperties(this.model, this.reporter, this.outputType, this.parse);
    return {
      step: (step) => this.steps.get(step) ?? EMPTY_STEP,
      functionEnsure: (fn) => this.functions.get(fn) ?? [],
      inputs: (step) => this.inputs.get(step) ?? [],
      parallelSource: (step) => this.sources.get(step) ?? null,
      parallelValidate: (step) => this.validates.get(step) ?? null,
      debateConverge: (step) => this.converges.get(step) ?? null,
      pipelinePredicates: (step) => this.stagePredicates.get(step) ?? [],
      resultType: (step) => this.resultType(step),
      outputType: this.outputType,
      properties,
    };
  }

  /** R(s) (docs/reference/language.md §10.12.2), before `| none` and without the accumulator fields. */
  resultType(step: StepDecl): Type {
    let t = this.resultTypes.get(step);
    if (t === undefined) {
      t = stepResultType(step, this.records);
      this.resultTypes.set(step, t);
    }
    return t;
  }

  /** The stored output of a step, read by `$.steps.<id>.output` (docs/reference/language.md §10.12.4): `none` for a gate. */
  private readonly outputType = (step: StepDecl): Type => {
    const known = this.outputTypes.get(step);
    if (known !== undefined) return known;
    let t = step.kind === "gate" ? NONE : this.resultType(step);
    if (t.k === "record" && step.integer("max_iterations") !== null) {
      t = recordOf(withAccumulatorFields(t.record, this.elementOf(step)));
    }
    // A re-entrant computation (an accumulate that reads its own output) may have stored one first.
    if (!this.outputTypes.has(step)) this.outputTypes.set(step, t);
    return this.outputTypes.get(step) ?? t;
  };

  /** The element type of the step's accumulate list (`any` without one, or while it is being checked). */
  private elementOf(step: StepDecl): Type {
    if (!hasId(step)) return ANY;
    const checked = this.accumulate(step);
    return checked === null ? ANY : elementType(checked.type);
  }

  /** The step's checked accumulate (memoised: reported once), or null. */
  private accumulate(step: IdStep): CheckedExpression | null {
    const known = this.accumulates.get(step);
    if (known !== undefined) return known;
    const node = this.expressionNode(step, "accumulate");
    if (node === null || this.accumulating.has(step)) return null;
    this.accumulating.add(step);
    const checked = this.checkStepPosition(step, "accumulate", node, `${this.stepPath(step)}.accumulate`);
    this.accumulating.delete(step);
    this.accumulates.set(step, checked);
    return checked;
  }

  /** The scalar of a single-expression field, unless absent, invalid or misplaced. */
  private expressionNode(
    step: StepDecl,
    kind: Exclude<ExpressionKind, "ensure" | "agree_on" | "property">,
  ): ScalarNode | null {
    const field = step.string(kind);
    if (field === null || field.entry.value.kind !== "scalar") return null;
    return misplacedExpressionFields(step).has(kind) ? null : field.entry.value;
  }

  private stepPath(step: IdStep): string {
    return `flows.${step.flow.name}.steps.${step.id}`;
  }

  private checkStep(step: IdStep): void {
    const base = this.stepPath(step);
    const single = (
      kind: Exclude<ExpressionKind, "ensure" | "agree_on" | "property">,
    ): CheckedExpression | null => {
      const node = this.expressionNode(step, kind);
      return node === null ? null : this.checkStepPosition(step, kind, node, `${base}.${kind}`);
    };
    const ensure: CheckedExpression[] = [];
    const list = step.strings("ensure");
    if (list !== null && !misplacedExpressionFields(step).has("ensure")) {
      list.value.forEach((node, i) => {
        ensure.push(this.checkStepPosition(step, "ensure", node, `${base}.ensure.${i}`));
      });
    }
    this.steps.set(step, {
      skipIf: single("skip_if"),
      ensure,
      exitCriterion: single("exit_criterion"),
      accumulate: this.accumulate(step),
      accumulateKey: single("accumulate_key"),
      scoreExpr: single("score_expr"),
      agreeOn: kindExpressions(step).includes("agree_on") ? this.agreeOn(step, base) : null,
    });
  }

  /** A quorum step's `agree_on`, typed with `result: R(s)`; a key that can never be hashed is reported. */
  private agreeOn(step: IdStep, base: string): CheckedExpression | null {
    const field = step.string("agree_on");
    if (field === null || field.entry.value.kind !== "scalar") return null;
    const checked = this.checkStepPosition(step, "agree_on", field.entry.value, `${base}.agree_on`);
    return reportUnhashableAgreeOn(this.reporter, step, checked) ? { ...checked, ok: false } : checked;
  }

  private refScope(step: IdStep): RefScope {
    return {
      flow: step.flow,
      stepId: step.id,
      outputType: this.outputType,
      dependsOn: (id) => dependsOn(step.flow, step, id),
    };
  }

  private checkStepPosition(
    step: IdStep,
    kind: ExpressionKind,
    node: ScalarNode,
    path: string,
  ): CheckedExpression {
    const refs = this.refScope(step);
    const needsElement = kind === "accumulate_key" || kind === "exit_criterion";
    const env = environment(kind, {
      result: this.resultType(step),
      element: needsElement ? this.elementOf(step) : ANY,
      accumulates: step.string("accumulate") !== null,
      scores: step.string("score_expr") !== null,
      pathType: (ref) => refType(refs, ref),
      owner: `Step '${step.id}'`,
    });
    return checkPosition({
      src: this.model.source,
      reporter: this.reporter,
      kind,
      node,
      path,
      env,
      refs,
      parse: this.parse,
    });
  }

  /** A parallel_dispatch step's validate, in its own environment (parallel-validate.ts). */
  private checkValidate(step: IdStep): void {
    const member = memberResultType(step, this.records);
    this.checkOwnNames(step, "validate", validateNode(step), this.validates, (pathType, owner) =>
      validateEnvironment(member, pathType, owner),
    );
  }

  /** A debate step's converge, in its own environment (debate-converge.ts). */
  private checkConverge(step: IdStep): void {
    const argument = argumentType(step, this.records);
    this.checkOwnNames(step, "converge", convergeNode(step), this.converges, (pathType, owner) =>
      convergeEnvironment(argument, pathType, owner),
    );
  }

  /** A pipeline's when / exit_when, each in its stage's environment (pipeline-stages.ts). */
  private checkStagePredicates(step: IdStep): void {
    const element = sourceElementType(step, this.outputType);
    const out: { when: CheckedExpression | null; exitWhen: CheckedExpression | null }[] = [];
    for (const { stage, field, node } of stagePredicateNodes(step)) {
      const text = typeof node.value === "string" ? node.value : "";
      const typed = checkPosition({
        src: this.model.source,
        reporter: stageReporter(
          this.reporter,
          { step: step.id, stage, field },
          text,
          stagePredicateNames(field, stage),
        ),
        kind: "ensure",
        node,
        path: `${this.stepPath(step)}.stages[${stage}].${field}`,
        env: stagePredicateEnvironment(field, stage, element, `Step '${step.id}' stage ${stage}`),
        refs: null,
        parse: this.parse,
      });
      const paths =
        typed.ast !== null && reportStagePaths(this.reporter, step, stage, field, node, typed.ast);
      const checked = paths ? { ...typed, ok: false } : typed;
      const entry = out[stage] ?? { when: null, exitWhen: null };
      out[stage] = entry;
      if (field === "when") entry.when = checked;
      else entry.exitWhen = checked;
    }
    this.stagePredicates.set(step, out);
  }

  /**
   * An expression of our extensions whose names are its own (no `result`): checked like an ensure
   * (EXPR-* rules, `$` references as for the step's ensure) in the environment `env` builds.
   */
  private checkOwnNames(
    step: IdStep,
    field: "validate" | "converge",
    node: ScalarNode | null,
    into: Map<StepDecl, CheckedExpression>,
    env: (pathType: NonNullable<ExprEnvironment["pathType"]>, owner: string) => ExprEnvironment,
  ): void {
    if (node === null) return;
    const refs = this.refScope(step);
    into.set(
      step,
      checkPosition({
        src: this.model.source,
        reporter: this.reporter,
        kind: "ensure",
        node,
        path: `${this.stepPath(step)}.${field}`,
        env: env((ref) => refType(refs, ref), `Step '${step.id}'`),
        refs,
        parse: this.parse,
      }),
    );
  }

  /**
   * A function's ensure, checked once for every step that uses it (its `$` paths read that step's
   * flow) with the output_schema properties common to all of them; an unused function's ensure is
   * checked once without reference checks. The table keeps the first check of each expression.
   */
  private checkFunctionEnsure(fn: FunctionDecl): void {
    const list = fn.strings("ensure");
    if (list === null || list.value.length === 0 || functionEnsureMisplaced(fn)) return;
    const users = this.model.flows.flatMap((f) =>
      f.steps.filter((s) => s.kind === "function" && s.fn === fn),
    );
    const result = functionResultType(fn, this.records, commonProperties(users.map(outputSchemaProperties)));
    const scopes: (RefScope | null)[] = users.filter(hasId).map((s) => this.refScope(s));
    if (scopes.length === 0) scopes.push(null);
    const kept: CheckedExpression[] = [];
    list.value.forEach((node, i) => {
      let first: CheckedExpression | null = null;
      let ok = true;
      for (const refs of scopes) {
        const env = environment("ensure", {
          result,
          element: ANY,
          accumulates: false,
          pathType: refs === null ? undefined : (ref) => refType(refs, ref),
          owner: `Function '${fn.name}'`,
        });
        const path = `functions.${fn.name}.ensure.${i}`;
        const checked = checkPosition({
          src: this.model.source,
          reporter: this.reporter,
          kind: "ensure",
          node,
          path,
          env,
          refs,
          parse: this.parse,
        });
        first ??= checked;
        ok &&= checked.ok;
      }
      if (first !== null) kept.push(ok ? first : { ...first, ok });
    });
    this.functions.set(fn, kept);
  }
}
