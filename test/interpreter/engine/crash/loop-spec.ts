// The specs the crash and two-writer tests run through the engine, and the names they use.
//
// LOOP_SPEC's `main` flow can be driven for as long as one likes and touches most of the state
// machine on every round: an iteration loop on `draft` (start, continue, exit_success), an
// ensure_failed retry of `draft`, a sub-flow step `sub` whose child flow `check` is created,
// driven to completion and reported to the parent, an exhausted `polish` routed back to `draft`
// by `on_fail`, and a gate `review` that is revised ROUNDS times before it is approved.
// TICK_SPEC's single step loops on itself, so every accepted step_done appends one StepRecord.

export const LOOP_SPEC = `version: "0.2"
functions:
  review_gate:
    mode: gate
flows:
  check:
    input: {n: {type: integer}}
    steps:
      - id: probe
        intent: "Probe the draft"
        inputs: {n: "$.input.n"}
  main:
    input: {}
    steps:
      - id: draft
        intent: "Write a draft"
        retries: 2
        ensure: ["result.ok == True"]
        max_iterations: 3
        exit_criterion: "result.q >= 2"
      - id: sub
        flow: check
        inputs: {n: "$.steps.draft.output.n"}
      - id: polish
        intent: "Polish"
        ensure: ["result.ok == True"]
        on_fail: draft
      - id: review
        function: review_gate
        on_approve: ~
        on_revise: draft
        on_kill: ~
`;

export const MAIN_FLOW = "main";
export const CHILD_FLOW = "check";
/** Execution order of `main` and of `check`. */
export const MAIN_STEPS = ["draft", "sub", "polish", "review"] as const;
export const CHILD_STEPS = ["probe"] as const;
/** How many times `review` is revised before it is approved (so a flow ends after ROUNDS + 1 rounds). */
export const ROUNDS = 2;
export const ENSURE_OK = "result.ok == True";
export const ENSURE_OK_FAILED = `ensure '${ENSURE_OK}' failed`;

export const TICK_SPEC = `version: "0.2"
flows:
  tick:
    input: {}
    steps:
      - id: tick
        intent: "Tick"
        next: tick
`;
export const TICK_FLOW = "tick";
