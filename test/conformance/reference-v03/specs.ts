// The spec fixtures and certificate texts of the reference's
// stratum-mcp/tests/integration/test_parallel_executor.py at smartmemory/stratum ecc1aa5, verbatim
// (the Python `textwrap.dedent` blocks), so the ported tests run the very same documents.

export const V03_DECOMPOSE_PARALLEL = `version: "0.3"
contracts:
  TaskGraph:
    tasks: {type: array}
  Result:
    outcome: {type: string}
functions:
  prep:
    mode: infer
    intent: "Prepare input"
    input: {}
    output: Result
flows:
  main:
    input: {plan: {type: string}}
    steps:
      - id: prepare
        function: prep
        inputs: {plan: "$.input.plan"}
      - id: analyze
        type: decompose
        agent: claude
        intent: "Break down into tasks"
        output_contract: TaskGraph
        ensure:
          - "no_file_conflicts(result.tasks)"
        retries: 3
        depends_on: [prepare]
      - id: execute
        type: parallel_dispatch
        source: "$.steps.analyze.output.tasks"
        agent: claude
        max_concurrent: 2
        isolation: worktree
        require: all
        merge: sequential_apply
        intent_template: "Do: {task.desc}"
        depends_on: [analyze]
`;

/** A decompose step, then a parallel step whose `require` (and agent) the variants change. */
function decomposeThenParallel(parallelKeys: string): string {
  return `version: "0.3"
contracts:
  TaskGraph:
    tasks: {type: array}
flows:
  main:
    input: {}
    steps:
      - id: analyze
        type: decompose
        agent: claude
        intent: "Break down"
        output_contract: TaskGraph
      - id: execute
        type: parallel_dispatch
        source: "$.steps.analyze.output.tasks"
${parallelKeys}`;
}

export const V03_REQUIRE_ANY = decomposeThenParallel(`        agent: claude
        require: any
        intent_template: "Do: {task.desc}"
        depends_on: [analyze]
`);

export const V03_REQUIRE_N = decomposeThenParallel(`        agent: claude
        require: 2
        intent_template: "Do: {task.desc}"
        depends_on: [analyze]
`);

export const V03_ISOLATION_NONE = decomposeThenParallel(`        agent: claude
        isolation: none
        intent_template: "Do: {task.desc}"
        depends_on: [analyze]
`);

function certSpec(agent: string, require: string): string {
  return decomposeThenParallel(`        agent: ${agent}
        require: ${require}
        intent_template: "Do: {task.desc}"
        depends_on: [analyze]
        retries: 1
        task_reasoning_template:
          require_citations: false
`);
}

export const V03_PAR_CERT = certSpec(`"claude:reviewer"`, "all");
export const V03_PAR_CERT_ANY = certSpec(`"claude:reviewer"`, "any");
export const V03_PAR_CERT_CODEX = certSpec("codex", "all");

/** Valid certificate artifact: all three default section headings. */
export const VALID_CERT = "## Premises\nfacts\n\n## Trace\nreasoning\n\n## Conclusion\nverdict\n";

/** Invalid certificate: Trace and Conclusion missing. */
export const BAD_CERT = "## Premises\njust premises, no trace or conclusion\n";
