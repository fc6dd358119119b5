// The specs of examples/: every clean example checks without any diagnostic and yields an IR; every
// broken example reports exactly the codes and lines its header announces.

import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import type { LocatedRange } from "../../../checker/diagnostic";
import type { CheckedSpec } from "../../../checker/ir/types";
import { brokenExamples, cleanExamples, expectedDiagnostics } from "../../support/spec-examples";
import { locationProblems, resultShapeProblems } from "../../support/spec-ranges";

const CLEAN = cleanExamples();
const BROKEN = brokenExamples();

function listed(
  diagnostics: readonly { line: number; code: string; severity: string; message: string }[],
): string {
  return diagnostics.map((d) => `${d.line} ${d.severity} ${d.code}: ${d.message}`).join("\n");
}

/** Every step's dependencies come before it (the IR's steps are in execution order). */
function orderProblems(ir: CheckedSpec): string[] {
  const problems: string[] = [];
  for (const flow of ir.flows.values()) {
    const seen = new Set<string>();
    for (const step of flow.steps) {
      for (const dep of step.dependencies) {
        if (!seen.has(dep)) problems.push(`${flow.name}: ${step.id} runs before its dependency ${dep}`);
      }
      seen.add(step.id);
    }
  }
  return problems;
}

describe("examples/", () => {
  it("has at least 8 clean examples, one of them version 0.1, each 40–150 lines", () => {
    expect(CLEAN.length).toBeGreaterThanOrEqual(8);
    expect(CLEAN.filter((e) => e.text.startsWith("#") && /^version: "0\.1"$/m.test(e.text))).toHaveLength(1);
    for (const e of CLEAN) {
      const lines = e.text.trimEnd().split("\n").length;
      expect([e.name, lines >= 40 && lines <= 150]).toEqual([e.name, true]);
    }
  });

  for (const example of CLEAN) {
    it(`${example.name} checks clean and yields an IR`, () => {
      const result = checkSpec(example.text);
      expect(listed(result.diagnostics)).toBe("");
      expect(result.valid).toBe(true);
      const ir = result.ir;
      expect(ir).not.toBeNull();
      if (ir === null) return;
      expect(ir.version).toBe(result.model?.version);
      expect([...ir.flows.keys()]).toEqual(result.model?.flows.map((f) => f.name));
      for (const flow of ir.flows.values()) {
        const declared = result.model?.flows.find((f) => f.name === flow.name)?.steps.map((s) => s.id);
        expect([...flow.steps.map((s) => s.id)].sort()).toEqual([...(declared ?? [])].sort());
      }
      expect(orderProblems(ir)).toEqual([]);
      expect(Object.isFrozen(ir)).toBe(true);
    });
  }

  it("the workflow example's entry flow is the flow named like the workflow", () => {
    const example = CLEAN.find((e) => e.name === "workflow-release-notes.stratum.yaml");
    const ir = example && checkSpec(example.text).ir;
    expect(ir?.workflow?.name).toBe("release-notes");
    expect(ir?.workflow?.entry).toBe("release-notes");
  });

  it("the sub-flow example types the child result by the step's output_contract", () => {
    const example = CLEAN.find((e) => e.name === "sub-flows.stratum.yaml");
    const release = example && checkSpec(example.text).ir?.flows.get("release");
    expect(release?.steps.map((s) => [s.id, s.kind, s.flow, s.outputContract, s.retries])).toEqual([
      ["server", "flow", "build_component", "Artifact", 1],
      ["cli", "flow", "build_component", "Artifact", 1],
      ["notes", "inline", null, null, 1],
      ["publish", "inline", null, "Publication", 1],
    ]);
  });

  it("the debug loop keeps its iteration expressions in the IR", () => {
    const example = CLEAN.find((e) => e.name === "debug-loop.stratum.yaml");
    const fix = example && checkSpec(example.text).ir?.flows.get("debug")?.stepById.get("fix");
    expect(fix?.maxIterations).toBe(8);
    expect(fix?.accumulate?.text).toBe("result.attempts");
    expect(fix?.accumulateKey?.text).toBe("item.hypothesis.lower().strip()");
    // A folded (`>-`) scalar: the line break became a space.
    expect(fix?.exitCriterion?.text).toBe(
      "result.tests_passing == True or any(a.outcome == 'fixed' for a in accumulator)",
    );
  });
});

/**
 * The patterns the examples' comments describe are really checked: one small edit to an example
 * gives exactly these diagnostic codes. [example, text to replace (unique), replacement, codes]
 */
const CLAIMS: ReadonlyArray<readonly [string, string, string, readonly string[]]> = [
  ["feature-build", "'modify', 'delete')", "'modify', 'remove')", ["EXPR-ENUM-VALUE"]],
  ["feature-build", "risk == 'low'", "risk == 'trivial'", ["EXPR-ENUM-VALUE"]],
  ["feature-build", "output.test_strategy", "output.test_plan", ["SPEC-REF-UNKNOWN-FIELD"]],
  ["code-review-gate", "        depends_on: [review]\n", "", ["SPEC-REF-MAY-NOT-HAVE-RUN"]],
  [
    "code-review-gate",
    "on_approve: merge\n        on_revise: write",
    "on_approve: merge\n        on_revise: merge",
    ["SPEC-GATE-ON-REVISE-EARLIER"],
  ],
  ["code-review-gate", "        on_kill: announce\n", "", ["SPEC-GATE-ROUTE-UNDECLARED"]],
  ["debug-loop", "item.hypothesis.lower()", "item.hypotesis.lower()", ["EXPR-UNKNOWN-FIELD"]],
  ["debug-loop", "a.outcome == 'fixed'", "a.outcome == 'solved'", ["EXPR-ENUM-VALUE"]],
  [
    "debug-loop",
    "        max_iterations: 8\n",
    "",
    [
      "SPEC-ACCUMULATE-NO-MAX",
      "SPEC-EXIT-CRITERION-NO-MAX",
      // accumulated_count is a known output field only of a step with max_iterations
      "SPEC-REF-UNKNOWN-FIELD",
    ],
  ],
  [
    "speckit-build",
    "properties: { done: { type: boolean }, tests_pass: { type: boolean } }",
    "properties: { done: { type: boolean } }",
    ["EXPR-UNKNOWN-FIELD"],
  ],
  ["sub-flows", "result.name == 'server'", "result.nam == 'server'", ["EXPR-UNKNOWN-FIELD"]],
  [
    "sub-flows",
    "id: server\n        flow: build_component",
    "id: server\n        flow: release",
    ["SPEC-FLOW-RECURSION"],
  ],
  ["routing", "on_fail: escalate", "on_fail: escalte", ["SPEC-ROUTE-UNKNOWN-STEP"]],
  [
    "routing",
    '          - "result.counts_match == True"\n',
    "          []\n",
    ["SPEC-ON-FAIL-NO-VALIDATION"],
  ],
  ["accumulator-hunt", "dry_streak >= 2", "dry_streak >= '2'", ["EXPR-TYPE"]],
  ["accumulator-hunt", "item.file + ':'", "result.file + ':'", ["EXPR-NAME-UNAVAILABLE"]],
  [
    "workflow-release-notes",
    "      include_internal: { type: boolean }\n    output",
    "    output",
    ["SPEC-REF-UNDECLARED-INPUT", "SPEC-WORKFLOW-INPUT-MISMATCH"],
  ],
];

describe("examples/ — the described checks are real", () => {
  for (const [name, from, to, codes] of CLAIMS) {
    it(`${name}: ${JSON.stringify(from)} → ${JSON.stringify(to)} gives ${codes.join(", ")}`, () => {
      const example = CLEAN.find((e) => e.name === `${name}.stratum.yaml`);
      expect(example?.text.split(from).length).toBe(2); // present exactly once
      const text = example?.text.replace(from, to) ?? "";
      const result = checkSpec(text);
      expect(result.diagnostics.map((d) => d.code).sort(), listed(result.diagnostics)).toEqual(
        [...codes].sort(),
      );
    });
  }
});

describe("examples/broken/", () => {
  it("has 6–10 broken examples, each announcing its diagnostics", () => {
    expect(BROKEN.length).toBeGreaterThanOrEqual(6);
    expect(BROKEN.length).toBeLessThanOrEqual(10);
    for (const e of BROKEN) expect([e.name, expectedDiagnostics(e.text).length > 0]).toEqual([e.name, true]);
  });

  for (const example of BROKEN) {
    it(`${example.name} reports exactly the announced diagnostics`, () => {
      const result = checkSpec(example.text);
      const actual = result.diagnostics.map((d) => `${d.code} at line ${d.line} (${d.severity})`).sort();
      const expected = expectedDiagnostics(example.text)
        .map((d) => `${d.code} at line ${d.line} (${d.severity})`)
        .sort();
      expect(actual, listed(result.diagnostics)).toEqual(expected);
      expect(result.valid).toBe(!expected.some((d) => d.endsWith("(error)")));
      expect(locationProblems(example.text, result.diagnostics)).toEqual([]);
      expect(resultShapeProblems(result)).toEqual([]);
    });
  }

  /** Paths, docs/reference/language.md §9.2 anchors, docs/reference/language.md §9.5 messages, did-you-mean, related locations and fixes of the broken examples. */
  const DETAILS: ReadonlyArray<readonly [string, ReadonlyArray<Record<string, string | undefined>>]> = [
    [
      "result-field-typo.stratum.yaml",
      [
        {
          code: "EXPR-UNKNOWN-FIELD",
          path: "functions.summarise.ensure.1",
          range: "24:17-24:23",
          fix: "24:17-24:23 summary",
          message: "contract 'Summary' has no field 'sumary'",
          suggestion: "Did you mean 'summary'?",
        },
      ],
    ],
    [
      "unknown-step-id.stratum.yaml",
      [
        {
          code: "SPEC-DEPENDS-ON-UNKNOWN",
          path: "flows.ship.steps.test.depends_on",
          range: "21:22-21:30",
          fix: "21:22-21:30 implement",
          message: "Step 'test' depends_on unknown step 'implment'",
          suggestion: "Did you mean 'implement'?",
        },
        {
          code: "SPEC-REF-UNKNOWN-STEP",
          path: "flows.ship.steps.release.inputs.commit",
          range: "25:28-25:36",
          fix: "25:28-25:36 implement",
          message: "Reference '$.steps.implemnt.output.commit' names unknown step 'implemnt' in flow 'ship'",
          suggestion: "Did you mean 'implement'?",
        },
      ],
    ],
    [
      "dependency-cycle.stratum.yaml",
      [
        {
          code: "SPEC-DEPENDENCY-CYCLE",
          path: "flows.tdd.steps.implement.inputs.tests",
          range: "23:18-23:40",
          related:
            "23:18-23:40 'implement' depends on 'tests' here | 26:22-26:31 'tests' depends on 'implement' here",
          message: "Cycle detected in step dependencies: implement -> tests -> implement",
        },
      ],
    ],
    [
      "gate-without-on-revise.stratum.yaml",
      [
        {
          code: "SPEC-GATE-ON-REVISE-MISSING",
          path: "flows.publish_post.steps.editor_review.on_revise",
          range: "24:13-24:26",
          message: "Gate step 'editor_review' must have on_revise set to a step id",
        },
      ],
    ],
    [
      "folded-expression-type-error.stratum.yaml",
      [
        {
          code: "EXPR-TYPE",
          path: "flows.classify.steps.classify.ensure.0",
          range: "27:17-27:33",
          message: "'>' not supported between instances of 'str' and 'int' (this always fails at run time)",
        },
      ],
    ],
    [
      "v02-key-in-v01.stratum.yaml",
      [
        {
          code: "SCHEMA-UNKNOWN-KEY",
          path: "flows.check",
          range: "26:5-26:15",
          message: "Additional properties are not allowed ('max_rounds' was unexpected)",
          suggestion: `'max_rounds' requires version "0.2"`,
        },
        {
          code: "SCHEMA-UNKNOWN-KEY",
          path: "flows.check.steps.0",
          range: "31:9-31:16",
          message: "Additional properties are not allowed ('skip_if' was unexpected)",
          suggestion: `'skip_if' requires version "0.2"`,
        },
      ],
    ],
    [
      "duplicate-ids.stratum.yaml",
      [
        {
          code: "SPEC-STEP-DUPLICATE-ID",
          path: "flows.onboarding.steps.2.id",
          range: "21:13-21:27",
          related: "15:13-15:27 'create_account' is first declared here",
          message: "Step id 'create_account' is declared more than once in flow 'onboarding'",
        },
      ],
    ],
    [
      "flow-recursion.stratum.yaml",
      [
        {
          code: "SPEC-FLOW-RECURSION",
          path: "flows.review",
          range: "21:15-21:18",
          related: "32:15-32:21 'fix' calls 'review' here",
          message:
            "Recursive flow reference detected: 'review' is referenced from within its own call chain (review -> fix -> review)",
        },
        {
          code: "SPEC-FLOW-RECURSION",
          path: "flows.fix",
          range: "32:15-32:21",
          related: "21:15-21:18 'review' calls 'fix' here",
          message:
            "Recursive flow reference detected: 'fix' is referenced from within its own call chain (fix -> review -> fix)",
        },
      ],
    ],
    [
      "warnings-only.stratum.yaml",
      [
        {
          code: "SPEC-REF-MAY-NOT-HAVE-RUN",
          path: "flows.deploy.steps.notify.skip_if",
          range: "33:19-33:44",
          related: "34:13-34:19 'deploy' is declared here",
          message:
            "'$.steps.deploy.output.url' may not have run when step 'notify' evaluates skip_if: 'deploy' is not a dependency of 'notify' (add it to depends_on)",
        },
        {
          code: "EXPR-COMPARISON-CONSTANT",
          path: "flows.deploy.steps.deploy.ensure.0",
          range: "39:14-39:37",
          message: "comparison is always False: int and str values are never equal",
        },
        {
          code: "SPEC-REVISE-UNBOUNDED",
          path: "flows.deploy.steps.live.on_revise",
          range: "43:20-43:26",
          message:
            "Gate 'live' revises back to 'deploy' without a bound: flow 'deploy' has no max_rounds, so every round needs a human",
        },
        {
          code: "SPEC-STEP-UNREACHABLE",
          path: "flows.deploy.steps.cleanup",
          range: "45:13-45:20",
          message: "Step 'cleanup' can never run: no route from the first step reaches it",
        },
      ],
    ],
  ];

  for (const [name, expected] of DETAILS) {
    it(`${name}: paths, ranges, messages, suggestions, related locations and fixes`, () => {
      const example = BROKEN.find((e) => e.name === name);
      expect(example).toBeDefined();
      if (example === undefined) return;
      const at = (r: LocatedRange) => `${r.line}:${r.column}-${r.end_line}:${r.end_column}`;
      const actual = checkSpec(example.text).diagnostics.map((d) => ({
        code: d.code,
        path: d.path,
        range: at(d),
        message: d.message,
        suggestion: d.suggestion,
        related: d.related?.map((r) => `${at(r)} ${r.message}`).join(" | "),
        fix: d.fix?.edits.map((e) => `${at(e)} ${e.new_text}`).join(" | "),
      }));
      const none = { suggestion: undefined, related: undefined, fix: undefined };
      expect(actual).toEqual(expected.map((e) => ({ ...none, ...e })));
    });
  }

  it("DETAILS covers every broken example", () => {
    expect(DETAILS.map(([name]) => name).sort()).toEqual(BROKEN.map((e) => e.name).sort());
  });
});
