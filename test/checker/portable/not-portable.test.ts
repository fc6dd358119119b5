// SPEC-NOT-PORTABLE (checkSpec's `portable` option, `stratumc check --portable`): every stratumc-only
// feature at its exact range, nothing without the option, nothing for specs that use only what the
// reference accepts, suppressions, and the feature list kept equal to the schema's "(a stratumc
// extension)" keys.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { STRATUMC_STEP_KEYS, STRATUMC_STEP_TYPES } from "../../../checker/portable/features";
import { STEP_TYPES } from "../../../checker/schema/spec-schema";
import { PARALLEL_STEP_KEYS } from "../../../checker/schema/spec-schema-parallel";

/** `line:col-line:col` of the `nth` occurrence of `needle` on 1-based line `line` (columns 1-based). */
function at(text: string, line: number, needle: string, nth = 1): string {
  const lineText = text.split("\n")[line - 1] ?? "";
  let index = -1;
  for (let k = 0; k < nth; k++) index = lineText.indexOf(needle, index + 1);
  if (index < 0) throw new Error(`'${needle}' is not on line ${line}: ${lineText}`);
  return `${line}:${index + 1}-${line}:${index + 1 + needle.length}`;
}

function lineOf(text: string, needle: string): number {
  const i = text.split("\n").findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`no line has '${needle}'`);
  return i + 1;
}

/** The needle's range on the first line that contains `lineNeedle`. */
function on(text: string, lineNeedle: string, needle = lineNeedle): string {
  return at(text, lineOf(text, lineNeedle), needle);
}

function portable(text: string, version: true | "0.2.50" | "0.2.69" = true): string[] {
  return checkSpec(text, { portable: version }).diagnostics.map(
    (d) => `${d.code} ${d.line}:${d.column}-${d.end_line}:${d.end_column} ${d.path}`,
  );
}

const EXTENSIONS = `version: "0.3"
contracts:
  Task:
    id: {type: string}
    description: {type: string}
  TaskGraph:
    tasks: {type: array, items: {type: Task}}
  TaskReport:
    tests_added: {type: integer}
  Argument:
    position: {type: string}
  Classification:
    severity: {type: string}
flows:
  main:
    input: {}
    steps:
      - id: classify
        type: quorum
        intent: "Classify"
        output_contract: Classification
        runs: 3
        agree_on: "result.severity"
        threshold: 2
      - id: fix
        type: race
        intent: "Fix it"
        candidates: 2
      - id: design
        type: debate
        intent: "Argue your side"
        debaters: [{id: pro}, {id: con}]
        rounds: 2
        argument_contract: Argument
        converge: "round_number >= 2"
        synthesis: {intent: "Decide"}
      - id: plan
        type: decompose
        agent: claude
        intent: "Break the change into tasks"
        output_contract: TaskGraph
      - id: run
        type: parallel_dispatch
        source: "$.steps.plan.output.tasks"
        intent_template: "Implement {task.description}"
        depends_on: [plan]
        require: 0
        member_contract: TaskReport
        validate: "len(results) >= 0"
`;

describe("SPEC-NOT-PORTABLE", () => {
  it("is not reported without the option (the spec checks clean)", () => {
    expect(checkSpec(EXTENSIONS).diagnostics).toEqual([]);
    expect(checkSpec(EXTENSIONS, { portable: false }).diagnostics).toEqual([]);
  });

  it("reports each step kind at its type value, each key at the key, require: 0 at its value", () => {
    const t = EXTENSIONS;
    const step = (id: string, key: string) => `flows.main.steps.${id}.${key}`;
    expect(portable(t)).toEqual([
      `SPEC-NOT-PORTABLE ${on(t, "type: quorum", "quorum")} ${step("classify", "type")}`,
      `SPEC-NOT-PORTABLE ${on(t, "runs: 3", "runs")} ${step("classify", "runs")}`,
      `SPEC-NOT-PORTABLE ${on(t, "agree_on:", "agree_on")} ${step("classify", "agree_on")}`,
      `SPEC-NOT-PORTABLE ${on(t, "threshold: 2", "threshold")} ${step("classify", "threshold")}`,
      `SPEC-NOT-PORTABLE ${on(t, "type: race", "race")} ${step("fix", "type")}`,
      `SPEC-NOT-PORTABLE ${on(t, "candidates: 2", "candidates")} ${step("fix", "candidates")}`,
      `SPEC-NOT-PORTABLE ${on(t, "type: debate", "debate")} ${step("design", "type")}`,
      `SPEC-NOT-PORTABLE ${on(t, "debaters:", "debaters")} ${step("design", "debaters")}`,
      `SPEC-NOT-PORTABLE ${on(t, "rounds: 2", "rounds")} ${step("design", "rounds")}`,
      `SPEC-NOT-PORTABLE ${on(t, "argument_contract:", "argument_contract")} ${step("design", "argument_contract")}`,
      `SPEC-NOT-PORTABLE ${on(t, "converge:", "converge")} ${step("design", "converge")}`,
      `SPEC-NOT-PORTABLE ${on(t, "synthesis:", "synthesis")} ${step("design", "synthesis")}`,
      `SPEC-NOT-PORTABLE ${on(t, "require: 0", "0")} ${step("run", "require")}`,
      `SPEC-NOT-PORTABLE ${on(t, "member_contract:", "member_contract")} ${step("run", "member_contract")}`,
      `SPEC-NOT-PORTABLE ${on(t, "validate:", "validate")} ${step("run", "validate")}`,
    ]);
  });

  it("is a warning that names the feature and suggests what to do; the spec stays valid", () => {
    const checked = checkSpec(EXTENSIONS, { portable: true });
    expect(checked.valid).toBe(true);
    const byPath = new Map(checked.warnings.map((d) => [d.path, d]));
    const quorum = byPath.get("flows.main.steps.classify.type");
    expect(quorum?.severity).toBe("warning");
    expect(quorum?.message).toBe("type: quorum is stratumc-only: stratum-mcp 0.2.69 rejects it");
    expect(quorum?.suggestion).toMatch(/parallel_dispatch/);
    expect(byPath.get("flows.main.steps.classify.runs")?.message).toBe(
      "'runs' (quorum steps) is stratumc-only: stratum-mcp 0.2.69 rejects it",
    );
    expect(byPath.get("flows.main.steps.run.require")?.message).toBe(
      "require: 0 is stratumc-only: stratum-mcp 0.2.69 rejects it (its minimum is 1)",
    );
    const old = checkSpec(EXTENSIONS, { portable: "0.2.50" }).warnings;
    expect(old.map((d) => d.message)).toContain(
      "type: quorum is stratumc-only: stratum-mcp 0.2.50 rejects it",
    );
    expect(old).toHaveLength(checked.warnings.length);
    expect(byPath.get("flows.main.steps.run.validate")?.suggestion).toMatch(/ensure/);
  });

  it("reads require 0.0 as 0, and leaves require 1, any and all alone", () => {
    const spec = (require: string) => EXTENSIONS.replace("require: 0", `require: ${require}`);
    expect(portable(spec("0.0")).filter((d) => d.endsWith(".require"))).toHaveLength(1);
    for (const value of ["1", "any", "all"])
      expect(portable(spec(value)).filter((d) => d.endsWith(".require"))).toEqual([]);
  });
});

const REFERENCE_02 = `version: "0.2"
contracts:
  Report:
    items: {type: array, items: {type: string}}
    score: {type: integer}
functions:
  review:
    mode: infer
    intent: "Review the change"
    input: {change: {type: string}}
    output: Report
    ensure:
      - "len(result.items) > 0"
      - "max(result.score, 0) == result.score and file_exists('README.md') in (True, False)"
    retries: 2
flows:
  main:
    input: {change: {type: string}}
    steps:
      - id: first
        function: review
        inputs: {change: "$.input.change"}
      - id: second
        intent: "Summarise"
        inputs: {items: "$.steps.first.output.items"}
        skip_if: "$.steps.first.output.score > 3"
        ensure: ["str(result) != ''"]
        depends_on: [first]
`;

const REFERENCE_03 = `version: "0.3"
contracts:
  Task:
    id: {type: string}
    description: {type: string}
  TaskGraph:
    tasks: {type: array, items: {type: Task}}
flows:
  main:
    input: {}
    steps:
      - id: plan
        type: decompose
        agent: claude
        intent: "Break the change into tasks"
        output_contract: TaskGraph
      - id: run
        type: parallel_dispatch
        source: "$.steps.plan.output.tasks"
        intent_template: "Implement {task.description}"
        depends_on: [plan]
        require: 2
        max_concurrent: 2
        isolation: none
        merge: manual
        ensure: ["len(result.completed) >= 1"]
`;

describe("specs that use only the reference's features", () => {
  it.each([
    ["0.2", REFERENCE_02],
    ["0.3", REFERENCE_03],
  ])("a %s spec gives no warning", (_version, text) => {
    expect(checkSpec(text).diagnostics).toEqual([]);
    expect(checkSpec(text, { portable: true }).diagnostics).toEqual([]);
  });
});

describe("expressions", () => {
  const text = REFERENCE_02.replace("len(result.items) > 0", "all(len(i) > 0 for i in result.items)")
    .replace(
      `skip_if: "$.steps.first.output.score > 3"`,
      `skip_if: "any(x == 'a' for x in $.steps.first.output.items)"`,
    )
    .replace(`ensure: ["str(result) != ''"]`, `ensure: ["str(result) != $.input.change"]`);

  it("reports a builtin the reference lacks at its name, and a $ path outside skip_if at the path", () => {
    expect(checkSpec(text).diagnostics).toEqual([]);
    // any and all are builtins of the reference since 0.2.69: reported against 0.2.50 only.
    expect(portable(text)).toEqual([
      `SPEC-NOT-PORTABLE ${on(text, '$.input.change"]', "$.input.change")} flows.main.steps.second.ensure.0`,
    ]);
    expect(portable(text, "0.2.69")).toEqual(portable(text));
    expect(portable(text, "0.2.50")).toEqual([
      `SPEC-NOT-PORTABLE ${on(text, '- "all(', "all")} functions.review.ensure.0`,
      `SPEC-NOT-PORTABLE ${on(text, "skip_if:", "any")} flows.main.steps.second.skip_if`,
      `SPEC-NOT-PORTABLE ${on(text, '$.input.change"]', "$.input.change")} flows.main.steps.second.ensure.0`,
    ]);
  });

  it("says what the reference does with each", () => {
    const messages = checkSpec(text, { portable: "0.2.50" }).warnings.map((d) => d.message);
    expect(messages).toEqual([
      "the builtin 'all' is new in stratum-mcp 0.2.69: in stratum-mcp 0.2.50 the expression raises NameError when it runs",
      "the builtin 'any' is new in stratum-mcp 0.2.69: in stratum-mcp 0.2.50 the expression raises NameError when it runs (so the step is never skipped)",
      "a $ path in ensure is stratumc-only: in stratum-mcp 0.2.50 the expression is a syntax error when it runs",
    ]);
    expect(checkSpec(text, { portable: true }).warnings.map((d) => d.message)).toEqual([
      "a $ path in ensure is stratumc-only: in stratum-mcp 0.2.69 the expression is a syntax error when it runs",
    ]);
  });

  it("leaves the expressions of stratumc's own keys to the key's warning", () => {
    const withSum = EXTENSIONS.replace(
      'validate: "len(results) >= 0"',
      'validate: "sum(r.tests_added for r in results) >= 0"',
    );
    expect(portable(withSum).filter((d) => d.endsWith(".validate"))).toHaveLength(1);
  });
});

describe("suppressions", () => {
  const suppressed = EXTENSIONS.replace(
    "        runs: 3\n",
    "        # stratum-ignore[SPEC-NOT-PORTABLE]: this team runs quorums on stratumc only\n        runs: 3\n",
  );

  it("a suppression comment hides the warning", () => {
    expect(portable(suppressed).some((d) => d.endsWith(".runs"))).toBe(false);
  });

  it("without the option the suppression is not reported unused", () => {
    expect(checkSpec(suppressed).diagnostics).toEqual([]);
  });
});

describe("the feature list", () => {
  it("has every step key the schema describes as a stratumc extension (require: only its value 0)", () => {
    const marked = PARALLEL_STEP_KEYS.filter((k) => /\(a stratumc extension\)/.test(k.description))
      .map((k) => k.name)
      .filter((name) => name !== "require");
    expect([...STRATUMC_STEP_KEYS.keys()].sort()).toEqual(marked.sort());
  });

  it("has every type value but 0.2.50's", () => {
    const reference = ["function", "inline", "flow", "decompose", "parallel_dispatch"];
    expect([...STRATUMC_STEP_TYPES.keys()].sort()).toEqual(
      STEP_TYPES.filter((t) => !reference.includes(t)).sort(),
    );
  });
});

describe("run-budget keys of 0.2.69", () => {
  const text = `version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  work:
    mode: infer
    intent: "Work"
    input: {}
    output: Out
    budget: {max_tokens: 10}
flows:
  main:
    input: {}
    budget: {ms: 1000, usd: 0.5, max_agent_dispatches: 2, max_tokens: 500}
    steps:
      - id: a
        intent: "Do it"
        budget: {usd: 1}
`;

  it("reports max_agent_dispatches and max_tokens at their key in every budget against 0.2.50, not ms or usd", () => {
    expect(checkSpec(text).diagnostics).toEqual([]);
    expect(portable(text)).toEqual([]);
    expect(portable(text, "0.2.50")).toEqual([
      `SPEC-NOT-PORTABLE ${on(text, "max_tokens: 10}", "max_tokens")} functions.work.budget.max_tokens`,
      `SPEC-NOT-PORTABLE ${on(text, "max_agent_dispatches: 2", "max_agent_dispatches")} flows.main.budget.max_agent_dispatches`,
      `SPEC-NOT-PORTABLE ${on(text, "max_tokens: 500", "max_tokens")} flows.main.budget.max_tokens`,
    ]);
  });
});
