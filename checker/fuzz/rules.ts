// The FUZZ-* codes: what `stratumc fuzz` finds by running a spec, in the one catalogue
// with the checker's rules, so `explain`, SARIF rule metadata, the LSP and docs/reference/rules.md describe
// them like every other code. The fuzzer (fuzzer/) builds its findings through these templates;
// nothing in the checker reports them.
import { defineRule, type RuleInfo } from "../rule";

export const FUZZ_ENSURE_RAISES = defineRule({
  code: "FUZZ-ENSURE-RAISES",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "ensure raises on a result that satisfies the contract",
  doc:
    "On some run the fuzzer reached, this ensure expression raised a run-time error for a result " +
    "that passed the step's contract and output_schema. A raising ensure counts as a violation, so " +
    "a correct result is rejected and the step is retried or exhausted. Typical causes: reading an " +
    "optional field that is absent or null, dividing by a field that may be 0, max()/min() or [0] " +
    "of a list that may be empty. Guard the read (result.get('f'), `x or 0`, `len(xs) == 0 or …`) " +
    "or make the field required.",
  example: {
    bad: "note: {type: string, required: false}\n…\nensure: [\"result.note.strip() != ''\"]",
    good: "ensure: [\"result.get('note') is None or result.get('note').strip() != ''\"]",
  },
  message: (expr: string, error: string) => `ensure '${expr}' raised on a conforming result: ${error}`,
});

export const FUZZ_SKIP_IF_RAISES = defineRule({
  code: "FUZZ-SKIP-IF-RAISES",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "skip_if raises on a reachable state",
  doc:
    "On some run this skip_if raised, so the step was not skipped (the run goes on with a warning). " +
    "It usually reads the output of a step that was itself skipped (its output is null) or an " +
    "input that was not given. Guard the read (`($.steps.a.output.n or 0) > 3`).",
  example: {
    bad: 'skip_if: "$.steps.lint.output.errors > 0"   # lint may be skipped',
    good: 'skip_if: "($.steps.lint.output.errors or 0) > 0"',
  },
  message: (step: string, error: string) => `skip_if of step '${step}' raised: ${error}`,
});

export const FUZZ_EXIT_CRITERION_RAISES = defineRule({
  code: "FUZZ-EXIT-CRITERION-RAISES",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "exit_criterion raises on a conforming iteration result",
  doc:
    "On some run this exit_criterion raised for an iteration result shaped like the step's contract; " +
    "a raising criterion counts as not met, so the loop cannot end on success for such results. " +
    "Guard the read or the division.",
  example: {
    bad: 'exit_criterion: "result.passed / result.total >= 0.9"   # total may be 0',
    good: 'exit_criterion: "result.total > 0 and result.passed / result.total >= 0.9"',
  },
  message: (step: string, error: string) => `exit_criterion of step '${step}' raised: ${error}`,
});

export const FUZZ_ACCUMULATE_FAILS = defineRule({
  code: "FUZZ-ACCUMULATE-FAILS",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "accumulate raises or returns a non-list",
  doc:
    "On some run this accumulate expression raised, or gave something other than a list, for an " +
    "iteration result shaped like the step's contract: nothing was accumulated from that report. " +
    "Make it always produce a list (`result.get('items') or []`).",
  example: {
    bad: 'extra: {type: array, required: false}\n…\naccumulate: "[x for x in result.extra]"',
    good: "accumulate: \"[x for x in (result.get('extra') or [])]\"",
  },
  message: (step: string, error: string) => `accumulate of step '${step}' failed: ${error}`,
});

export const FUZZ_INPUT_UNRESOLVED = defineRule({
  code: "FUZZ-INPUT-UNRESOLVED",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "step input cannot be resolved on a reachable path",
  doc:
    "On some run the flow reached this step and could not resolve this input, so the flow cannot go " +
    "on: the step it reads was jumped over by routing (on_fail, next, a gate route), an optional " +
    "flow input was not given, or a key is missing below an untyped value. Read only steps that " +
    "run on every path to this one, or route around this step on those paths.",
  example: {
    bad: '- id: build\n  on_fail: triage      # jumps over test\n- id: test\n- id: triage\n  inputs: {failures: "$.steps.test.output.failures"}',
    good: '- id: triage\n  inputs: {log: "$.steps.build.output.log"}   # build runs on every path here',
  },
  message: (step: string, input: string, error: string) =>
    `input '${input}' of step '${step}' cannot be resolved: ${error}`,
});

export const FUZZ_INPUT_READS_SKIPPED = defineRule({
  code: "FUZZ-INPUT-READS-SKIPPED",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "step input reads the output of a skipped step",
  doc:
    "On some run the step this input reads was skipped by its skip_if, so the agent was given null " +
    "instead of that step's output. Give the reading step a matching skip_if, or make the producer " +
    "run whenever the consumer does.",
  example: {
    bad: 'lint: skip_if: "$.input.quick"\nfix: inputs: {report: "$.steps.lint.output"}',
    good: 'fix: skip_if: "$.input.quick"   # the same condition as lint',
  },
  message: (step: string, input: string, skipped: string) =>
    `input '${input}' of step '${step}' reads the output of '${skipped}', which its skip_if skipped: the agent gets null`,
});

export const FUZZ_FLOW_OUTPUT = defineRule({
  code: "FUZZ-FLOW-OUTPUT",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "finished flow's output does not fit the flow's output contract",
  doc:
    "A flow's output is the stored output of the last step (in execution order) whose output is not " +
    "null. On some run it did not conform to the contract named by the flow's `output`: the last " +
    "step produces another shape, or was skipped so an earlier step's output became the flow's. " +
    "Make the final step produce the flow's contract on every path.",
  example: {
    bad: "output: LocalizedNotes\nsteps:\n  - id: draft        # ReleaseNotes\n  - id: translate    # skip_if: \"$.input.locale == 'en'\"",
    good: "steps:\n  - id: draft\n  - id: translate\n  - id: finalize     # output_contract: LocalizedNotes, never skipped",
  },
  message: (flow: string, contract: string, problem: string) =>
    `flow '${flow}' finished with an output that does not fit its output contract '${contract}': ${problem}`,
});

export const FUZZ_UNBOUNDED_LOOP = defineRule({
  code: "FUZZ-UNBOUNDED-LOOP",
  severity: "warning",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "loop that no counter bounds",
  doc:
    "On some run a step was dispatched far more often than retries, max_rounds and max_iterations " +
    "allow, through this route: nothing in the spec stops the agent (or the human) from going round " +
    "for ever. Bound it (max_rounds on the flow for revise loops; route a repeated failure elsewhere), " +
    "or keep it deliberately and say so in a comment (# stratum-ignore[FUZZ-UNBOUNDED-LOOP]: reason).",
  example: {
    bad: "- id: generate\n  on_fail: diagnose\n- id: diagnose\n  next: generate",
    good: "max_rounds: 3          # on the flow, for a gate's revise loop\n# or: route a repeated failure to a step that ends the flow",
  },
  message: (route: string, step: string, visits: number, bound: number) =>
    `${route} makes a loop that no counter bounds: step '${step}' was dispatched ${visits} times in one run (the spec's counters allow ${bound})`,
});

export const FUZZ_NO_COMPLETION = defineRule({
  code: "FUZZ-NO-COMPLETION",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "flow that no run completes",
  doc:
    "The exhaustive exploration covered every path of this flow and none of them completed: each " +
    "run either ended in a failure the spec declares (retries exhausted, a kill) or went round this " +
    "route again and again. A flow that cannot complete even when every step passes and every gate " +
    "is approved is broken on every run. Typically a step after a check runs whatever the check said " +
    "and routes back to it with next: make the route conditional (skip_if on the fixing step, or " +
    "on_fail on the check instead of next on the fix), or end the flow after the check passes.",
  example: {
    bad: '- id: review\n  ensure: ["result.approved"]\n- id: fix\n  next: review',
    good: '- id: review\n  ensure: ["result.approved"]\n  on_fail: fix\n- id: fix\n  next: review\n  skip_if: "$.steps.review.output.approved"',
  },
  message: (flow: string, route: string, loop: string) =>
    `no run of flow '${flow}' completes: ${route} sends it round ${loop} for ever, and every other run ends in a failure or a kill`,
});

export const FUZZ_DEAD_STEP = defineRule({
  code: "FUZZ-DEAD-STEP",
  severity: "warning",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "step that no run dispatches",
  doc:
    "No explored run dispatched this step: its skip_if held every time, or no route led to it. In " +
    "exhaustive mode this is proven over the explored choices; in random mode it was not seen in the " +
    "runs made. Fix the condition or the routes, or remove the step.",
  example: {
    bad: 'skip_if: "len($.input.docs) >= 0"    # always true',
    good: 'skip_if: "len($.input.docs) == 0"',
  },
  message: (step: string, where: string, why: string) =>
    `step '${step}' is never dispatched ${where}: ${why}`,
});

export const FUZZ_ENSURE_UNSATISFIABLE = defineRule({
  code: "FUZZ-ENSURE-UNSATISFIABLE",
  severity: "warning",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "ensure that no conforming result satisfies",
  doc:
    "No result that the fuzzer generated from the step's contract, including results built from the " +
    "expressions' own constants, passed this ensure (or the list as a whole): the step can only fail. " +
    "Check the comparison directions and the constants.",
  example: {
    bad: 'ensure: ["result.pass_rate >= 95 and result.pass_rate <= 1.0"]',
    good: 'ensure: ["result.pass_rate >= 0.95 and result.pass_rate <= 1.0"]',
  },
  message: (step: string, what: string, tried: number, searched?: string) =>
    `${what} of step '${step}' held for none of ${tried} conforming results${searched === undefined ? "" : ` (${searched})`}`,
});

export const FUZZ_EXIT_NEVER = defineRule({
  code: "FUZZ-EXIT-NEVER",
  severity: "warning",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "exit_criterion that never holds",
  doc:
    "No iteration report the fuzzer made satisfied this exit_criterion, so the loop always runs to " +
    "max_iterations (or stagnates). Check the comparison directions and constants.",
  example: {
    bad: 'max_iterations: 3\nexit_criterion: "dry_streak >= 4"',
    good: 'max_iterations: 6\nexit_criterion: "dry_streak >= 2"',
  },
  message: (step: string, tried: number, searched?: string) =>
    `exit_criterion of step '${step}' held for none of ${tried} iteration reports${searched === undefined ? "" : ` (${searched})`}`,
});

export const FUZZ_INTERNAL = defineRule({
  code: "FUZZ-INTERNAL",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "the interpreter failed (a bug in stratumc)",
  doc:
    "The interpreter answered internal_error while the fuzzer drove this spec: a bug in stratumc, " +
    "not in your spec. Please report it with the counterexample (--save writes it to a file).",
  example: {
    bad: "$ stratumc fuzz plan.stratum.yaml   # FUZZ-INTERNAL on stratum_step_done",
    good: "$ stratumc fuzz plan.stratum.yaml --save bug.json   # attach bug.json to the report",
  },
  message: (call: string) => `the interpreter failed on ${call} (internal_error): please report this bug`,
});

export const FUZZ_RULES: readonly RuleInfo[] = [
  FUZZ_ENSURE_RAISES,
  FUZZ_SKIP_IF_RAISES,
  FUZZ_EXIT_CRITERION_RAISES,
  FUZZ_ACCUMULATE_FAILS,
  FUZZ_INPUT_UNRESOLVED,
  FUZZ_INPUT_READS_SKIPPED,
  FUZZ_FLOW_OUTPUT,
  FUZZ_UNBOUNDED_LOOP,
  FUZZ_NO_COMPLETION,
  FUZZ_DEAD_STEP,
  FUZZ_ENSURE_UNSATISFIABLE,
  FUZZ_EXIT_NEVER,
  FUZZ_INTERNAL,
];
