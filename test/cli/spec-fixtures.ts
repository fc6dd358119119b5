// Small specs shared by the end-to-end CLI tests.

/** Valid: two flows, a gate with null routes, on_fail / next routes, a sub-flow call. */
export const CLEAN = `version: "0.2"
contracts:
  WorkOutput:
    result: {type: string}
    quality_score: {type: number}
functions:
  do_work:
    mode: infer
    intent: "Produce the deliverable"
    input: {text: {type: string}}
    output: WorkOutput
    ensure:
      - "result.quality_score >= 0.8"
  review_gate:
    mode: gate
flows:
  reviewed_work:
    input: {text: {type: string}}
    output: WorkOutput
    max_rounds: 3
    steps:
      - id: work
        function: do_work
        inputs: {text: "$.input.text"}
        on_fail: fallback
      - id: review
        function: review_gate
        on_approve: ~
        on_revise: work
        on_kill: ~
      - id: fallback
        intent: "Write it by hand"
        next: review
  outer:
    input: {text: {type: string}}
    steps:
      - id: sub
        flow: reviewed_work
        inputs: {text: "$.input.text"}
      - id: after
        intent: "Summarise"
        inputs: {r: "$.steps.sub.output"}
`;

/** Two warnings (a duplicate key, timeout on a non-gate function), no error. */
export const WARNINGS = `version: "0.2"
functions:
  write:
    mode: infer
    intent: "first"
    intent: "Write it"
    input: {}
    output: Out
    timeout: 30
contracts:
  Out:
    text: {type: string}
flows:
  main:
    input: {}
    steps:
      - id: only
        function: write
        inputs: {}
`;

/** One error: an unknown depends_on entry with a did-you-mean (line 9, column 22). */
export const BROKEN = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: build
        intent: "Build it"
      - id: b
        depends_on: [buld]
        intent: "Then this"
`;
