// docs/reference/language.md §9.5.4 gate rules: forbidden fields on gate steps, required routes (with the insert fix),
// on_revise, gate-only fields on non-gate steps, and SPEC-ROUTE-UNKNOWN-STEP.
import { describe, expect, it } from "vitest";
import { SPEC_GATE_ACCUMULATE } from "../../../checker/rules/gates/SPEC-GATE-ACCUMULATE";
import { SPEC_GATE_EXIT_CRITERION } from "../../../checker/rules/gates/SPEC-GATE-EXIT-CRITERION";
import { SPEC_GATE_MAX_ITERATIONS } from "../../../checker/rules/gates/SPEC-GATE-MAX-ITERATIONS";
import { SPEC_GATE_NEXT } from "../../../checker/rules/gates/SPEC-GATE-NEXT";
import { SPEC_GATE_ON_FAIL } from "../../../checker/rules/gates/SPEC-GATE-ON-FAIL";
import { SPEC_GATE_ON_REVISE_MISSING } from "../../../checker/rules/gates/SPEC-GATE-ON-REVISE-MISSING";
import { SPEC_GATE_ON_REVISE_SELF } from "../../../checker/rules/gates/SPEC-GATE-ON-REVISE-SELF";
import { SPEC_GATE_OUTPUT_SCHEMA } from "../../../checker/rules/gates/SPEC-GATE-OUTPUT-SCHEMA";
import { SPEC_GATE_POLICY_FALLBACK_NO_POLICY } from "../../../checker/rules/gates/SPEC-GATE-POLICY-FALLBACK-NO-POLICY";
import { SPEC_GATE_ROUTE_UNDECLARED } from "../../../checker/rules/gates/SPEC-GATE-ROUTE-UNDECLARED";
import { SPEC_NONGATE_GATE_ROUTE } from "../../../checker/rules/steps/SPEC-NONGATE-GATE-ROUTE";
import { SPEC_NONGATE_GATE_ROUTE_NULL } from "../../../checker/rules/steps/SPEC-NONGATE-GATE-ROUTE-NULL";
import { SPEC_NONGATE_POLICY } from "../../../checker/rules/steps/SPEC-NONGATE-POLICY";
import { SPEC_ROUTE_UNKNOWN_STEP } from "../../../checker/rules/steps/SPEC-ROUTE-UNKNOWN-STEP";
import {
  diag,
  fix,
  gate,
  point,
  runPhases,
  runRules,
  STEP_LINE,
  span,
  withLines,
  withSteps,
} from "./support";

const L = STEP_LINE;

function clean(text: string): void {
  const run = runPhases(text);
  expect(run.structure).toEqual([]);
  expect(run.rules).toEqual([]);
}

describe("fields forbidden on gate steps", () => {
  it("SPEC-GATE-OUTPUT-SCHEMA, -MAX-ITERATIONS, -ON-FAIL, -NEXT at their keys", () => {
    const text = withSteps(
      gate("r", "output_schema: {type: object}, max_iterations: 2, on_fail: a, next: a"),
    );
    expect(runRules(text)).toEqual([
      diag(
        SPEC_GATE_OUTPUT_SCHEMA,
        "flows.f.steps.r.output_schema",
        "Gate step 'r' may not have output_schema (gates produce no output)",
        span(text, L, "output_schema"),
      ),
      diag(
        SPEC_GATE_MAX_ITERATIONS,
        "flows.f.steps.r.max_iterations",
        "Gate step 'r' must not have max_iterations (gates have their own revise cycle)",
        span(text, L, "max_iterations"),
      ),
      diag(
        SPEC_GATE_ON_FAIL,
        "flows.f.steps.r.on_fail",
        "Gate step 'r' must not have on_fail (use on_revise for gates)",
        span(text, L, "on_fail"),
      ),
      diag(
        SPEC_GATE_NEXT,
        "flows.f.steps.r.next",
        "Gate step 'r' must not have next (use on_approve for gates)",
        span(text, L, "next"),
      ),
    ]);
  });

  it("SPEC-GATE-EXIT-CRITERION is a warning at the key", () => {
    const text = withSteps(gate("r", "exit_criterion: 'True'"));
    expect(runRules(text)).toEqual([
      diag(
        SPEC_GATE_EXIT_CRITERION,
        "flows.f.steps.r.exit_criterion",
        "Gate step 'r' must not have exit_criterion (gates have their own revise cycle); it has no effect",
        span(text, L, "exit_criterion"),
      ),
    ]);
  });

  it("SPEC-GATE-ACCUMULATE once per step: at accumulate, else at accumulate_key", () => {
    const text = withSteps(gate("r", "accumulate: x, accumulate_key: y"), gate("s", "accumulate_key: y"));
    expect(runRules(text)).toEqual([
      diag(
        SPEC_GATE_ACCUMULATE,
        "flows.f.steps.r.accumulate",
        "Gate step 'r' must not have accumulate/accumulate_key",
        span(text, L, "accumulate"),
      ),
      diag(
        SPEC_GATE_ACCUMULATE,
        "flows.f.steps.s.accumulate_key",
        "Gate step 's' must not have accumulate/accumulate_key",
        span(text, L + 1, "accumulate_key"),
      ),
    ]);
  });

  it("SPEC-GATE-POLICY-FALLBACK-NO-POLICY at policy_fallback", () => {
    const text = withSteps(gate("r", "policy_fallback: flag"));
    expect(runRules(text)).toEqual([
      diag(
        SPEC_GATE_POLICY_FALLBACK_NO_POLICY,
        "flows.f.steps.r.policy_fallback",
        "Gate step 'r' has policy_fallback but no policy",
        span(text, L, "policy_fallback"),
      ),
    ]);
  });

  it("accepts a complete gate with policy, policy_fallback, skip_if and agent", () => {
    clean(withSteps(gate("r", "policy: flag, policy_fallback: gate, skip_if: 'False', agent: human")));
  });
});

describe("SPEC-GATE-ROUTE-UNDECLARED", () => {
  const rule = SPEC_GATE_ROUTE_UNDECLARED;
  const msg = (s: string, f: string) =>
    `Gate step '${s}' must explicitly declare '${f}' (use null for default terminal behaviour)`;

  it("flow mapping: E anchor, fix inserts ', <field>: null' after the last entry", () => {
    const text = withSteps("{id: r, function: review, on_kill: null, on_revise: a}");
    const after = point(L, span(text, L, "on_revise: a").end_column);
    expect(runRules(text)).toEqual([
      diag(rule, "flows.f.steps.r.on_approve", msg("r", "on_approve"), span(text, L, "r"), {
        fix: fix("Insert 'on_approve: null'", after, ", on_approve: null"),
      }),
    ]);
  });

  it("block mapping: fix inserts a new line with the step's key indentation", () => {
    const text = withLines("      - id: r", "        function: review", "        on_revise: a  # back to a");
    const end = point(L + 2, span(text, L + 2, "# back to a").end_column);
    expect(runRules(text)).toEqual([
      diag(rule, "flows.f.steps.r.on_approve", msg("r", "on_approve"), span(text, L, "r"), {
        fix: fix("Insert 'on_approve: null'", end, "\n        on_approve: null"),
      }),
      diag(rule, "flows.f.steps.r.on_kill", msg("r", "on_kill"), span(text, L, "r"), {
        fix: fix("Insert 'on_kill: null'", end, "\n        on_kill: null"),
      }),
    ]);
  });

  it("a null route is declared", () => {
    clean(
      withLines(
        "      - id: r",
        "        function: review",
        "        on_revise: a",
        "        on_approve: ~",
        "        on_kill:",
      ),
    );
  });
});

describe("SPEC-GATE-ON-REVISE-MISSING and SPEC-GATE-ON-REVISE-SELF", () => {
  it("a missing on_revise is reported at E, a null one at its key", () => {
    const text = withSteps(
      "{id: r, function: review, on_approve: null, on_kill: null}",
      "{id: s, function: review, on_approve: null, on_kill: null, on_revise: null}",
    );
    expect(runRules(text)).toEqual([
      diag(
        SPEC_GATE_ON_REVISE_MISSING,
        "flows.f.steps.r.on_revise",
        "Gate step 'r' must have on_revise set to a step id",
        span(text, L, "r"),
      ),
      diag(
        SPEC_GATE_ON_REVISE_MISSING,
        "flows.f.steps.s.on_revise",
        "Gate step 's' must have on_revise set to a step id",
        span(text, L + 1, "on_revise"),
      ),
    ]);
  });

  it("a self-targeting on_revise is reported at its value", () => {
    const text = withSteps("{id: r, function: review, on_approve: null, on_kill: null, on_revise: 'r'}");
    expect(runRules(text)).toEqual([
      diag(
        SPEC_GATE_ON_REVISE_SELF,
        "flows.f.steps.r.on_revise",
        "Gate step 'r' on_revise may not target itself",
        span(text, L, "'r'"),
      ),
    ]);
  });
});

describe("gate-only fields on non-gate steps", () => {
  it("SPEC-NONGATE-GATE-ROUTE for non-null routes, SPEC-NONGATE-GATE-ROUTE-NULL (warning) for nulls", () => {
    const text = withSteps("{id: b, function: work, on_approve: a, on_revise: null, on_kill: a}");
    expect(runRules(text)).toEqual([
      diag(
        SPEC_NONGATE_GATE_ROUTE,
        "flows.f.steps.b.on_approve",
        "Step 'b' is not a gate step but has 'on_approve' set",
        span(text, L, "on_approve"),
      ),
      diag(
        SPEC_NONGATE_GATE_ROUTE_NULL,
        "flows.f.steps.b.on_revise",
        "Step 'b' is not a gate step; 'on_revise: null' has no effect",
        span(text, L, "on_revise"),
      ),
      diag(
        SPEC_NONGATE_GATE_ROUTE,
        "flows.f.steps.b.on_kill",
        "Step 'b' is not a gate step but has 'on_kill' set",
        span(text, L, "on_kill"),
      ),
    ]);
  });

  it("SPEC-NONGATE-POLICY for policy and policy_fallback", () => {
    const text = withSteps("{id: b, intent: x, policy: skip, policy_fallback: flag}");
    expect(runRules(text)).toEqual([
      diag(
        SPEC_NONGATE_POLICY,
        "flows.f.steps.b.policy",
        "Step 'b' has policy but is not a gate step",
        span(text, L, "policy"),
      ),
      diag(
        SPEC_NONGATE_POLICY,
        "flows.f.steps.b.policy_fallback",
        "Step 'b' has policy_fallback but is not a gate step",
        span(text, L, "policy_fallback"),
      ),
    ]);
  });
});

describe("SPEC-ROUTE-UNKNOWN-STEP", () => {
  const rule = SPEC_ROUTE_UNKNOWN_STEP;

  it("reports unknown gate routes at their values", () => {
    const text = withSteps("{id: r, function: review, on_approve: zz, on_kill: null, on_revise: b}");
    expect(runRules(text)).toEqual([
      diag(
        rule,
        "flows.f.steps.r.on_approve",
        "Step 'r' on_approve references unknown step 'zz'",
        span(text, L, "zz"),
      ),
      // 'a' and 'r' are equally close: the earlier one is suggested, without a fix.
      diag(
        rule,
        "flows.f.steps.r.on_revise",
        "Step 'r' on_revise references unknown step 'b'",
        span(text, L, "b"),
        {
          suggestion: "Did you mean 'a'?",
        },
      ),
    ]);
  });

  it("reports next and on_fail of working steps, with did-you-mean over the flow's ids", () => {
    const text = withSteps("{id: build, intent: x, ensure: ['True'], on_fail: buld, next: nowhere}");
    expect(runRules(text)).toEqual([
      diag(
        rule,
        "flows.f.steps.build.on_fail",
        "Step 'build' on_fail references unknown step 'buld'",
        span(text, L, "buld"),
        {
          suggestion: "Did you mean 'build'?",
          fix: fix("Replace 'buld' with 'build'", span(text, L, "buld"), "build"),
        },
      ),
      diag(
        rule,
        "flows.f.steps.build.next",
        "Step 'build' next references unknown step 'nowhere'",
        span(text, L, "nowhere"),
      ),
    ]);
  });

  it("does not resolve routes that are themselves misplaced", () => {
    const text = withSteps("{id: b, intent: x, on_approve: zz}", gate("r", "next: zz"));
    expect(runRules(text).map((d) => d.code)).toEqual(["SPEC-NONGATE-GATE-ROUTE", "SPEC-GATE-NEXT"]);
  });

  it("accepts routes to steps declared later", () => {
    clean(withSteps("{id: b, intent: x, next: c}", "{id: c, intent: y}", gate("r")));
  });
});
