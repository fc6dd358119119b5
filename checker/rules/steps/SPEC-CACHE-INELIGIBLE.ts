// SPEC-CACHE-INELIGIBLE: a cached step (its own `cache: true` or its function's) must be a step
// whose result can be replayed: a compute function step that neither loops, accumulates nor routes.

import type { StepDecl } from "../../model/types";
import { defineRule } from "../../rule";
import { has, keyOf, stepEntity, stepPath } from "../support";
import type { RuleVisitor } from "../types";

type Why = "compute" | "iteration" | "accumulator" | "routing";

const WHY_TEXT: { readonly [W in Why]: string } = {
  compute:
    "is not a compute function step — result caching is only valid on side-effect-free compute function steps",
  iteration:
    "is an iteration-loop step (max_iterations/exit_criterion/score_expr) — iteration loops are nondeterministic and not cacheable",
  accumulator:
    "is an accumulator step (accumulate) — accumulators carry cross-iteration state and are not cacheable",
  routing: "is a routing step (next) — `next` jumps are not honoured on the cache hit path in v1",
};

export const SPEC_CACHE_INELIGIBLE = defineRule({
  code: "SPEC-CACHE-INELIGIBLE",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "cache: true on a step whose result cannot be replayed",
  doc: "A cached step (`cache: true` on the step or on its function) is answered from the result cache when the same step, function and inputs were run before, so it must be a step whose result depends on nothing else: a function step of a compute function, with no iteration loop (max_iterations, exit_criterion, score_expr), no accumulate and no next. The first of these that fails is reported, at the step's `cache` key (or the step, when only its function sets cache). Remove cache, or move the work into a compute function step of its own.",
  example: {
    bad: "- {id: draft, intent: x, cache: true}",
    good: "- {id: total, function: add_up, inputs: {}, cache: true}",
  },
  message: (step: string, why: Why) => `Step '${step}' has cache: true but ${WHY_TEXT[why]}`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { model, reporter }) => {
      if (!cached(step)) return;
      const why = ineligibility(step, model.functionByName.has.bind(model.functionByName));
      if (why === null) return;
      reporter.report(SPEC_CACHE_INELIGIBLE, {
        message: SPEC_CACHE_INELIGIBLE.message(step.id, why),
        path: stepPath(step, "cache"),
        range: step.entry("cache") === undefined ? stepEntity(model, step) : keyOf(step, "cache"),
      });
    });
  },
});

/** The effective flag: the step's own `cache: true`, or its function's. */
function cached(step: StepDecl): boolean {
  return step.boolean("cache")?.value === true || step.fn?.boolean("cache")?.value === true;
}

/** The first rule the step breaks, in the reference's order; null when it may be cached. */
function ineligibility(step: StepDecl, functionExists: (name: string) => boolean): Why | null {
  const fnName = step.string("function")?.value;
  // An undefined function is SPEC-STEP-FUNCTION-UNDEFINED's alone.
  if (fnName !== undefined && fnName !== "" && !functionExists(fnName)) return null;
  // A step whose kind is unknown has its own error already (mode, selectors, `type`).
  if (step.kind === null) return null;
  if (step.kind !== "function" || step.fn?.mode !== "compute") return "compute";
  // Present counts (the reference tests `is not None`), even an empty exit_criterion.
  if (["max_iterations", "exit_criterion", "score_expr"].some((k) => step.entry(k) !== undefined)) {
    return "iteration";
  }
  if (nonEmpty(step, "accumulate")) return "accumulator";
  if (nonEmpty(step, "next")) return "routing";
  return null;
}

function nonEmpty(step: StepDecl, key: string): boolean {
  return has(step, key) && (step.string(key)?.value ?? "") !== "";
}
