// Port of the reference's 0.3 validation tests (smartmemory/stratum, commit ecc1aa5), through
// `stratum_validate` of the built `stratum-mcp` over stdio:
// - stratum-mcp/tests/integration/test_parallel_schema.py (the parse / reject tests; the
//   `no_file_conflicts` unit tests call the Python function and are covered by the
//   v03_decompose_no_file_conflicts scenario instead)
// - stratum-mcp/tests/test_spec_task_timeout.py
// - stratum-mcp/tests/test_cert.py, class TestTaskReasoningTemplate
// - stratum-mcp/tests/integration/test_accumulator.py, test_accumulate_rejected_on_parallel_dispatch_step
// Adaptation: the reference raises on the first problem (`pytest.raises(..., match=X)`); we report
// every problem, so a rejection is `valid: false` with some error message containing X. The IR
// attribute assertions (`step_type`, `max_concurrent == 3`, defaults of `capture_diff`, the filled-in
// certificate sections) are not observable through validate: those tests assert `valid: true`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Plain, ReferenceSession } from "./reference-session";

let session: ReferenceSession;

beforeAll(async () => {
  session = await ReferenceSession.start();
});

afterAll(async () => {
  expect(await session.close()).toEqual([]);
});

/** Python's str.replace, but a fixture that no longer contains `from` is a test bug. */
function replaced(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`fixture does not contain ${JSON.stringify(from)}`);
  return text.split(from).join(to);
}

async function validate(spec: string): Promise<{ valid: unknown; messages: string[]; response: Plain }> {
  const response = await session.call("stratum_validate", { spec });
  const errors = Array.isArray(response.errors) ? (response.errors as Plain[]) : [];
  return { valid: response.valid, messages: errors.map((e) => String(e.message ?? "")), response };
}

async function expectValid(spec: string): Promise<void> {
  const { valid, response } = await validate(spec);
  expect(valid, JSON.stringify(response)).toBe(true);
}

/** `pytest.raises(..., match=...)`: rejected, and every `parts` appears in one error message. */
async function expectRejected(spec: string, ...parts: string[]): Promise<void> {
  const { valid, messages, response } = await validate(spec);
  expect(valid, JSON.stringify(response)).toBe(false);
  expect(
    messages.some((m) => parts.every((p) => m.includes(p))),
    `no error message contains ${JSON.stringify(parts)}: ${JSON.stringify(messages)}`,
  ).toBe(true);
}

// test_parallel_schema.py `_VALID_V03_SPEC`, verbatim (it starts with a newline).
const VALID_V03_SPEC = `
version: "0.3"
contracts:
  TaskGraph:
    tasks: {type: array}
  PhaseResult:
    outcome: {type: string}
functions:
  work:
    mode: infer
    intent: "Produce output"
    input: {}
    output: PhaseResult
flows:
  build:
    input: {plan: {type: string}}
    output: PhaseResult
    steps:
      - id: do_work
        function: work
        inputs: {plan: "$.input.plan"}
      - id: analyze
        type: decompose
        agent: claude
        intent: "Analyze the plan and produce a TaskGraph"
        output_contract: TaskGraph
        ensure:
          - "no_file_conflicts(result.tasks)"
        depends_on: [do_work]
      - id: execute
        type: parallel_dispatch
        source: "$.steps.analyze.output.tasks"
        agent: claude
        max_concurrent: 3
        isolation: worktree
        require: all
        merge: sequential_apply
        intent_template: "Implement: {task.description}"
        depends_on: [analyze]
`;

const VALID_V02_SPEC = `
version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  work:
    mode: infer
    intent: "Produce output"
    input: {}
    output: Out
flows:
  f:
    input: {}
    output: Out
    steps:
      - id: s1
        function: work
        inputs: {}
`;

/** test_parallel_dispatch_fields_forbidden_on_function_step's template. */
const functionStepWith = (field: string, value: string) => `
version: "0.3"
contracts:
  Out:
    v: {type: string}
functions:
  work:
    mode: infer
    intent: "Produce output"
    input: {}
    output: Out
flows:
  f:
    input: {}
    output: Out
    steps:
      - id: s1
        function: work
        inputs: {}
        ${field}: ${value}
`;

const ISOLATION = "        isolation: worktree\n";
const withAfterIsolation = (line: string) =>
  replaced(VALID_V03_SPEC, ISOLATION, `${ISOLATION}        ${line}\n`);

describe("reference test_parallel_schema.py (ecc1aa5) through stratum_validate", () => {
  it("test_v03_spec_parses", () => expectValid(VALID_V03_SPEC));
  it("test_v02_backward_compat", () => expectValid(VALID_V02_SPEC));

  it("test_decompose_requires_output_contract", () =>
    expectRejected(replaced(VALID_V03_SPEC, "        output_contract: TaskGraph\n", ""), "output_contract"));

  it("test_decompose_requires_agent", () =>
    expectRejected(
      replaced(
        VALID_V03_SPEC,
        '        agent: claude\n        intent: "Analyze the plan and produce a TaskGraph"\n',
        '        intent: "Analyze the plan and produce a TaskGraph"\n',
      ),
      "agent",
    ));

  it("test_decompose_requires_intent", () =>
    expectRejected(
      replaced(VALID_V03_SPEC, '        intent: "Analyze the plan and produce a TaskGraph"\n', ""),
      "intent",
    ));

  it("test_parallel_dispatch_requires_source", () =>
    expectRejected(
      replaced(VALID_V03_SPEC, '        source: "$.steps.analyze.output.tasks"\n', ""),
      "source",
    ));

  it("test_parallel_dispatch_requires_intent_template", () =>
    expectRejected(
      replaced(VALID_V03_SPEC, '        intent_template: "Implement: {task.description}"\n', ""),
      "intent_template",
    ));

  for (const [field, value] of [
    ["source", '"$.steps.s1.output"'],
    ["isolation", "worktree"],
    ["require", "all"],
    ["merge", "sequential_apply"],
  ] as const) {
    it(`test_parallel_dispatch_fields_forbidden_on_function_step[${field}-${value}]`, () =>
      expectRejected(functionStepWith(field, value), field));
  }

  it("test_intent_template_forbidden_on_function_step", () =>
    expectRejected(functionStepWith("intent_template", '"some template"'), "intent_template"));

  it("test_intent_template_forbidden_on_decompose_step", () =>
    expectRejected(
      `
version: "0.3"
contracts:
  TaskGraph:
    tasks: {type: array}
flows:
  f:
    input: {}
    steps:
      - id: analyze
        type: decompose
        agent: claude
        intent: "Analyze"
        output_contract: TaskGraph
        intent_template: "some template"
`,
      "intent_template",
    ));

  it("test_max_concurrent_defaults_to_3", () =>
    expectValid(replaced(VALID_V03_SPEC, "        max_concurrent: 3\n", "")));
  it("test_isolation_none_validates", () =>
    expectValid(replaced(VALID_V03_SPEC, ISOLATION, "        isolation: none\n")));
  it("test_step_mode_decompose", () => expectValid(VALID_V03_SPEC));

  it("test_parallel_dispatch_capture_diff_accepts_bool", async () => {
    await expectValid(withAfterIsolation("capture_diff: true"));
    await expectValid(withAfterIsolation("capture_diff: false"));
  });
  it("test_parallel_dispatch_capture_diff_omitted_defaults_to_false", () => expectValid(VALID_V03_SPEC));
  it("test_parallel_dispatch_capture_diff_rejects_non_bool", () =>
    expectRejected(withAfterIsolation('capture_diff: "true"'), "boolean"));

  it("test_parallel_dispatch_defer_advance_accepts_bool", async () => {
    await expectValid(withAfterIsolation("defer_advance: true"));
    await expectValid(withAfterIsolation("defer_advance: false"));
  });
  it("test_parallel_dispatch_defer_advance_omitted_defaults_to_false", () => expectValid(VALID_V03_SPEC));
  it("test_parallel_dispatch_defer_advance_rejects_non_bool", () =>
    expectRejected(withAfterIsolation('defer_advance: "true"'), "boolean"));
});

// test_spec_task_timeout.py fixtures (the f-string templates, dedented).
const parallelSpec = (taskTimeoutLine = "") => `version: "0.3"
contracts:
  TaskGraph:
    tasks: {type: array}
  PhaseResult:
    outcome: {type: string}
flows:
  build:
    input: {plan: {type: string}}
    output: PhaseResult
    steps:
      - id: analyze
        type: decompose
        agent: claude
        intent: "Analyze the plan and produce a TaskGraph"
        output_contract: TaskGraph
      - id: execute
        type: parallel_dispatch
        source: "$.steps.analyze.output.tasks"
        agent: claude
        max_concurrent: 3
        isolation: worktree
        require: all
        merge: sequential_apply
        intent_template: "Implement: {task.description}"
        ${taskTimeoutLine}
        depends_on: [analyze]
`;

const nonParallelSpecWith = (fieldLine: string) => `version: "0.3"
flows:
  build:
    input: {}
    output: ""
    steps:
      - id: s1
        type: inline
        agent: claude
        intent: "Do something"
        ${fieldLine}
`;

describe("reference test_spec_task_timeout.py (ecc1aa5) through stratum_validate", () => {
  it("TestTaskTimeoutSchema.test_parallel_dispatch_accepts_task_timeout_positive_int", () =>
    expectValid(parallelSpec("task_timeout: 600")));
  it("TestTaskTimeoutSchema.test_parallel_dispatch_accepts_task_timeout_null", () =>
    expectValid(parallelSpec("")));
  it("TestTaskTimeoutSchema.test_parallel_dispatch_rejects_task_timeout_zero", async () => {
    expect((await validate(parallelSpec("task_timeout: 0"))).valid).toBe(false);
  });
  it("TestTaskTimeoutSchema.test_parallel_dispatch_rejects_task_timeout_negative", async () => {
    expect((await validate(parallelSpec("task_timeout: -1"))).valid).toBe(false);
  });
  it("TestParallelOnlyGate.test_non_parallel_step_rejects_task_timeout", () =>
    expectRejected(nonParallelSpecWith("task_timeout: 600"), "task_timeout", "parallel_dispatch"));
  it("TestParallelOnlyGate.test_non_parallel_step_rejects_max_concurrent", () =>
    expectRejected(nonParallelSpecWith("max_concurrent: 2"), "max_concurrent", "parallel_dispatch"));
  it("test_build_step_populates_task_timeout", () => expectValid(parallelSpec("task_timeout: 600")));
});

/** test_cert.py's parallel spec, with this `task_reasoning_template` (or other keys) at the end. */
const parCertSpec = (tail: string) => `version: "0.3"
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
        agent: claude
        require: all
        intent_template: "Do: {task.desc}"
        depends_on: [analyze]
${tail}`;

const PAR_CERT_SPEC = parCertSpec(`        task_reasoning_template:
          require_citations: true
`);

const PAR_CERT_CUSTOM_SECTIONS_SPEC = parCertSpec(`        task_reasoning_template:
          require_citations: false
          sections:
            - id: findings
              label: Findings
              description: What you found
`);

describe("reference test_cert.py TestTaskReasoningTemplate (ecc1aa5) through stratum_validate", () => {
  it("test_task_reasoning_template_accepted_on_parallel_dispatch", () => expectValid(PAR_CERT_SPEC));
  it("test_task_reasoning_template_applies_defaults", () => expectValid(PAR_CERT_SPEC));
  it("test_task_reasoning_template_preserves_custom_sections", () =>
    expectValid(PAR_CERT_CUSTOM_SECTIONS_SPEC));
  it("test_task_reasoning_template_rejects_missing_section_fields", () =>
    expectRejected(
      parCertSpec(`        task_reasoning_template:
          sections:
            - label: Bad
              description: missing id
`),
      "task_reasoning_template",
    ));
  it("test_task_reasoning_template_rejected_on_inline_step", () =>
    expectRejected(
      `version: "0.2"
flows:
  main:
    input: {}
    output: ""
    steps:
      - id: s1
        agent: claude
        intent: "Do work"
        task_reasoning_template:
          require_citations: false
`,
      "task_reasoning_template",
    ));
  it("test_reasoning_template_still_rejected_on_parallel_dispatch", () =>
    expectRejected(
      parCertSpec(`        reasoning_template:
          require_citations: false
`),
      "reasoning_template",
    ));
});

describe("reference test_accumulator.py (ecc1aa5) through stratum_validate", () => {
  it("test_accumulate_rejected_on_parallel_dispatch_step", () =>
    expectRejected(
      `version: "0.3"
flows:
  main:
    input: {}
    steps:
      - id: s1
        type: parallel_dispatch
        source: "$.input.items"
        agent: claude
        intent_template: "process {{task}}"
        max_iterations: 3
        accumulate: "result.findings"
`,
      "accumulate",
    ));
});
