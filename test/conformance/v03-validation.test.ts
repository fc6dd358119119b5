// Version 0.3 through the `stratum_validate` answer ({valid, errors, warnings}): the recorded
// v03 cases are valid, and each new semantic rule answers with the reference's error_type and
// message (the research notes on the reference, sections 1.5, 1.6 and 2.2).
import { describe, expect, it } from "vitest";
import { validate } from "../../interpreter/flow/validate";
import { loadValidationCases } from "../support/spec-conformance";

interface WireDiagnostic {
  readonly code: string;
  readonly error_type: string;
  readonly path: string;
  readonly message: string;
}

function answer(spec: string): { valid: boolean; errors: WireDiagnostic[]; warnings: WireDiagnostic[] } {
  return validate({ spec }) as unknown as {
    valid: boolean;
    errors: WireDiagnostic[];
    warnings: WireDiagnostic[];
  };
}

const HEAD = `version: "0.3"
contracts: {TaskGraph: {tasks: {type: array}}}
flows:
  f:
    input: {}
    steps:
      - {id: d, type: decompose, agent: claude, intent: plan, output_contract: TaskGraph}
`;

describe("stratum_validate on 0.3 specs", () => {
  it.each(["v03_decompose_ok", "version_03_string"])(
    "recorded case %s is valid, as in the reference",
    (name) => {
      const c = loadValidationCases().find((x) => x.name === name);
      expect(c?.reference.valid).toBe(true);
      expect(answer(c?.yaml ?? "")).toEqual({ valid: true, errors: [], warnings: [] });
    },
  );

  it.each([
    [
      "      - {id: p, type: parallel_dispatch, intent_template: x}\n",
      "ir_semantic_error",
      "flows.f.steps.p.source",
      "parallel_dispatch step 'p' must have 'source'",
    ],
    [
      "      - {id: p, type: decompose, intent: x, output_contract: TaskGraph}\n",
      "ir_semantic_error",
      "flows.f.steps.p.agent",
      "Decompose step 'p' must have 'agent'",
    ],
    [
      "      - {id: p, intent: x, max_concurrent: 2}\n",
      "ir_semantic_error",
      "flows.f.steps.p.max_concurrent",
      "Step 'p' has 'max_concurrent' but is not a parallel_dispatch step",
    ],
    [
      "      - {id: p, type: parallel_dispatch, source: $.steps.d.output.tasks, intent_template: x, accumulate: result.tasks}\n",
      "ir_semantic_error",
      "flows.f.steps.p.accumulate",
      "Step 'p' has accumulate/accumulate_key but is a parallel_dispatch step — accumulate is not supported on parallel_dispatch steps",
    ],
    [
      "      - {id: p, type: parallel_dispatch, source: $.steps.d.output.tasks, intent_template: x, task_timeout: 0}\n",
      "ir_validation_error",
      "flows.f.steps.1.task_timeout",
      "0 is less than the minimum of 1",
    ],
    [
      // require: 0 is our extension (docs/design/concurrency-constructs.md §2): the minimum is 0.
      "      - {id: p, type: parallel_dispatch, source: $.steps.d.output.tasks, intent_template: x, require: -1}\n",
      "ir_validation_error",
      "flows.f.steps.1.require",
      "-1 is less than the minimum of 0",
    ],
    [
      "      - {id: p, type: parallel_dispatch, source: $.steps.d.output.tasks, intent_template: x, task_reasoning_template: {sections: []}}\n",
      "ir_semantic_error",
      "flows.f.steps.p.task_reasoning_template.sections",
      "task_reasoning_template must have at least one section",
    ],
  ])("%s", (step, errorType, path, message) => {
    const got = answer(HEAD + step);
    expect(got.valid).toBe(false);
    expect(got.errors.map((e) => [e.error_type, e.path, e.message])).toEqual([[errorType, path, message]]);
  });

  it("a warning leaves the spec valid", () => {
    const got = answer(
      `${HEAD}      - {id: p, type: parallel_dispatch, source: $.steps.d.output.tasks, intent_template: x, function: f}\n`,
    );
    expect(got.valid).toBe(true);
    expect(got.warnings.map((w) => w.code)).toEqual(["SPEC-STEP-KIND-IGNORED-KEY"]);
  });
});
