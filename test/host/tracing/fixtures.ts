// The flow the tracing tests run: a step whose `ensure` fails once (a retry), a sub-flow and a
// gate, in that order (docs/guides/tracing.md).
export const TRACED_SPEC = `version: "0.2"
functions:
  approval:
    mode: gate
flows:
  child:
    input: {}
    steps:
      - id: work
        intent: "Do the child's work"
  main:
    input: {}
    steps:
      - id: draft
        intent: "Write a draft"
        retries: 2
        ensure:
          - "result.ok == True"
      - id: sub
        flow: child
      - id: review
        function: approval
        on_approve: ~
        on_revise: draft
        on_kill: ~
`;

/** The span tree TRACED_SPEC's flow gives when driven to completion (a retry, a sub-flow, a gate). */
export const TRACED_TREE = [
  "flow main complete",
  "  step draft #1 rejected",
  "  step draft #2 accepted",
  "  subflow sub #1 accepted",
  "    flow child complete",
  "      step work #1 accepted",
  "  gate review approve",
];
