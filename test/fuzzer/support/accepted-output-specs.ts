// Specs whose properties read an output the step's own result does not show (a parallel step's
// aggregate, a sub-flow's output, a result served from the cache, an accumulating loop's merged
// fields), each with a property some run breaks and one no run can (property-accepted-output.test.ts,
// and through the built CLI in test/cli/fuzz/accepted-output.test.ts).

const PARALLEL = `version: "0.3"
contracts:
  Files:
    files: {type: array}
functions:
  list:
    mode: infer
    intent: "List the files"
    input: {}
    output: Files
flows:
  main:
    input: {}
    steps:
      - id: seed
        function: list
        inputs: {}
      - id: review
        type: parallel_dispatch
        source: "$.steps.seed.output.files"
        intent_template: "Review {item}"
        agent: claude
        require: any
        depends_on: [seed]
properties:
  nothing_failed:
    flow: main
    always: "$.steps.review.status != 'done' or len($.steps.review.output.failed) == 0"
  accepted_complete:
    flow: main
    always: "$.steps.review.status != 'done' or ($.steps.review.output.outcome == 'complete' and len($.steps.review.output.completed) >= 1)"
`;

export const SUB_FLOW = `version: "0.2"
contracts:
  Count:
    n: {type: integer}
flows:
  child:
    input: {}
    output: Count
    steps:
      - id: count
        intent: "Count the open issues"
        inputs: {}
        output_contract: Count
        ensure:
          - "result.n >= 0"
  main:
    input: {}
    steps:
      - id: sub
        flow: child
        inputs: {}
        output_contract: Count
      - id: report
        intent: "Report the count"
        inputs:
          n: "$.steps.sub.output.n"
properties:
  few_issues:
    flow: main
    always: "$.steps.sub.status != 'done' or $.steps.sub.output.n < 1"
  count_not_negative:
    flow: main
    always: "$.steps.sub.status != 'done' or $.steps.sub.output.n >= 0"
`;

// The gate's revise sends the flow back to the cached step with the same inputs: in round 1 its
// output is served from the cache (the first round is left out of the properties on purpose).
export const CACHED = `version: "0.2"
contracts:
  Summary:
    title: {type: string}
    words: {type: integer}
functions:
  summarize:
    mode: compute
    intent: "Summarize the document"
    input:
      doc: {type: string}
    output: Summary
    cache: true
    ensure:
      - "result.words >= 0"
  review:
    mode: gate
flows:
  main:
    input:
      doc: {type: string}
    max_rounds: 2
    steps:
      - id: sum
        function: summarize
        inputs:
          doc: "$.input.doc"
      - id: check
        function: review
        on_approve: ~
        on_revise: sum
        on_kill: ~
properties:
  short_after_revise:
    flow: main
    always: "$.flow.round == 0 or $.steps.sum.status != 'done' or $.steps.sum.output.words < 1"
  counted_after_revise:
    flow: main
    always: "$.flow.round == 0 or $.steps.sum.status != 'done' or $.steps.sum.output.words >= 0"
`;

export const ACCUMULATE = `version: "0.2"
contracts:
  Page:
    links: {type: array}
    done: {type: boolean}
flows:
  main:
    input: {}
    steps:
      - id: crawl
        intent: "Crawl one page per iteration and list its broken links"
        inputs: {}
        output_contract: Page
        max_iterations: 3
        accumulate: "result.links"
        exit_criterion: "result.done == True"
properties:
  one_link_at_most:
    flow: main
    always: "$.steps.crawl.output.accumulated_count == None or $.steps.crawl.output.accumulated_count < 2"
  count_matches_list:
    flow: main
    always: "$.steps.crawl.output.accumulated_count == None or $.steps.crawl.output.accumulated_count == len($.steps.crawl.output.accumulated)"
`;

/**
 * Each case: its spec, the property a run breaks, the call after which it breaks, the one that
 * holds and its verdict. Every holding one reads a step's output, data the exhaustive paths do not
 * enumerate, so it is at most not_refuted (docs/guides/testing-a-spec.md "Properties").
 */
export const CASES = [
  [
    "a parallel step's aggregate",
    PARALLEL,
    "nothing_failed",
    "stratum_parallel_done",
    "accepted_complete",
    "not_refuted",
  ],
  // The sub-flow's exploration is random only (a child's runs are not enumerated): not_refuted.
  ["a sub-flow's output", SUB_FLOW, "few_issues", "stratum_step_done", "count_not_negative", "not_refuted"],
  // Broken after the revise: the state in which the cache served `sum` again.
  [
    "a result served from the cache",
    CACHED,
    "short_after_revise",
    "stratum_gate_resolve",
    "counted_after_revise",
    "not_refuted",
  ],
  [
    "an accumulating loop's merged fields",
    ACCUMULATE,
    "one_link_at_most",
    "stratum_step_done",
    "count_matches_list",
    "not_refuted",
  ],
] as const;
