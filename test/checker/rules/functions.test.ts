// docs/reference/language.md §9.5.3 function rules: SPEC-GATE-FN-ENSURE/-BUDGET/-RETRIES, SPEC-FN-OUTPUT-CONTRACT-UNDEFINED,
// SPEC-FN-INTENT-REQUIRED, SPEC-FN-INPUT-REQUIRED, SPEC-FN-TIMEOUT-NOT-GATE.
import { describe, expect, it } from "vitest";
import { SPEC_FN_INPUT_REQUIRED } from "../../../checker/rules/functions/SPEC-FN-INPUT-REQUIRED";
import { SPEC_FN_INTENT_REQUIRED } from "../../../checker/rules/functions/SPEC-FN-INTENT-REQUIRED";
import { SPEC_FN_OUTPUT_CONTRACT_UNDEFINED } from "../../../checker/rules/functions/SPEC-FN-OUTPUT-CONTRACT-UNDEFINED";
import { SPEC_FN_TIMEOUT_NOT_GATE } from "../../../checker/rules/functions/SPEC-FN-TIMEOUT-NOT-GATE";
import { SPEC_GATE_FN_BUDGET } from "../../../checker/rules/functions/SPEC-GATE-FN-BUDGET";
import { SPEC_GATE_FN_ENSURE } from "../../../checker/rules/functions/SPEC-GATE-FN-ENSURE";
import { SPEC_GATE_FN_RETRIES } from "../../../checker/rules/functions/SPEC-GATE-FN-RETRIES";
import { diag, fix, join, runPhases, runRules, span } from "./support";

/** A 0.2 document with contracts Out and Report and the given lines under `functions:` (from line 6). */
function fns(...lines: string[]): string {
  return [
    'version: "0.2"',
    "contracts:",
    "  Out: {v: {type: string}}",
    "  Report: {v: {type: string}}",
    "functions:",
    ...lines,
    "",
  ].join("\n");
}

function clean(text: string): void {
  const run = runPhases(text);
  expect(run.structure).toEqual([]);
  expect(run.rules).toEqual([]);
}

describe("SPEC-GATE-FN-ENSURE", () => {
  it("reports a non-empty ensure list of a gate function at V:ensure", () => {
    const text = fns('  g: {mode: gate, ensure: ["True", "False"]}');
    expect(runRules(text)).toEqual([
      diag(
        SPEC_GATE_FN_ENSURE,
        "functions.g.ensure",
        "Gate function 'g' must not have ensure expressions",
        span(text, 6, '["True", "False"]'),
      ),
    ]);
  });

  it("a block list starts at the ensure key (docs/reference/language.md §9.2 start line)", () => {
    const text = fns("  g:", "    mode: gate", "    ensure:", '      - "x > 1"');
    expect(runRules(text)).toEqual([
      diag(
        SPEC_GATE_FN_ENSURE,
        "functions.g.ensure",
        "Gate function 'g' must not have ensure expressions",
        join(span(text, 8, "ensure"), span(text, 9, '"x > 1"')),
      ),
    ]);
  });

  it("accepts an empty list on a gate and ensure on infer/compute functions", () => {
    clean(fns("  g: {mode: gate, ensure: []}"));
    clean(fns("  w: {mode: compute, intent: w, input: {}, output: Out, ensure: [\"result.v != ''\"]}"));
  });
});

describe("SPEC-GATE-FN-BUDGET", () => {
  it("reports a gate function's budget at its key", () => {
    const text = fns("  g: {mode: gate, budget: {ms: 10}}");
    expect(runRules(text)).toEqual([
      diag(
        SPEC_GATE_FN_BUDGET,
        "functions.g.budget",
        "Gate function 'g' must not have a budget",
        span(text, 6, "budget"),
      ),
    ]);
  });

  it("accepts a budget on an infer function", () => {
    clean(fns("  w: {mode: infer, intent: w, input: {}, output: Out, budget: {ms: 10, usd: 0.5}}"));
  });
});

describe("SPEC-GATE-FN-RETRIES", () => {
  it("reports retries on a gate function whenever the key is present", () => {
    const text = fns("  g:", "    mode: gate", "    retries: 1");
    expect(runRules(text)).toEqual([
      diag(
        SPEC_GATE_FN_RETRIES,
        "functions.g.retries",
        "Gate function 'g' must not have retries (gates produce no output to retry)",
        span(text, 8, "retries"),
      ),
    ]);
  });

  it("accepts retries on a compute function", () => {
    clean(fns("  w: {mode: compute, intent: w, input: {}, output: Out, retries: 2}"));
  });
});

describe("SPEC-FN-OUTPUT-CONTRACT-UNDEFINED", () => {
  const rule = SPEC_FN_OUTPUT_CONTRACT_UNDEFINED;

  it("suggests and fixes a unique close match", () => {
    const text = fns("  w: {mode: infer, intent: w, input: {}, output: Reprt}");
    expect(runRules(text)).toEqual([
      diag(
        rule,
        "functions.w.output",
        "Function 'w' output contract 'Reprt' not defined",
        span(text, 6, "Reprt"),
        {
          suggestion: "Did you mean 'Report'?",
          fix: fix("Replace 'Reprt' with 'Report'", span(text, 6, "Reprt"), "Report"),
        },
      ),
    ]);
  });

  it("keeps the quotes of a quoted name in the fix", () => {
    const text = fns("  w:", "    mode: infer", "    intent: w", "    input: {}", '    output: "Ot"');
    expect(runRules(text)).toEqual([
      diag(
        rule,
        "functions.w.output",
        "Function 'w' output contract 'Ot' not defined",
        span(text, 10, '"Ot"'),
        {
          suggestion: "Did you mean 'Out'?",
          fix: fix("Replace 'Ot' with 'Out'", span(text, 10, "Ot"), "Out"),
        },
      ),
    ]);
  });

  it("gives no suggestion without a close match, and reports an empty name", () => {
    const text = fns(
      "  w: {mode: infer, intent: w, input: {}, output: Nothing}",
      "  v: {mode: compute, intent: w, input: {}, output: ''}",
    );
    expect(runRules(text)).toEqual([
      diag(
        rule,
        "functions.w.output",
        "Function 'w' output contract 'Nothing' not defined",
        span(text, 6, "Nothing"),
      ),
      diag(rule, "functions.v.output", "Function 'v' output contract '' not defined", span(text, 7, "''")),
    ]);
  });

  it("suggests without a fix when several names are equally close", () => {
    const text = [
      'version: "0.2"',
      "contracts: {OutA: {}, OutB: {}}",
      "functions:",
      "  w: {mode: infer, intent: w, input: {}, output: OutC}",
      "",
    ].join("\n");
    expect(runRules(text)).toEqual([
      diag(
        rule,
        "functions.w.output",
        "Function 'w' output contract 'OutC' not defined",
        span(text, 4, "OutC"),
        {
          suggestion: "Did you mean 'OutA'?",
        },
      ),
    ]);
  });

  it("ignores the output of a gate function and accepts a declared contract", () => {
    clean(fns("  g: {mode: gate, output: Nothing}"));
    clean(fns("  w: {mode: infer, intent: w, input: {}, output: Report}"));
  });
});

describe("SPEC-FN-INTENT-REQUIRED and SPEC-FN-INPUT-REQUIRED", () => {
  it("warn at the function's key when a 0.2 infer/compute function lacks intent or input", () => {
    const text = fns(
      "  work: {mode: compute, output: Out}",
      "  other: {mode: infer, intent: x, output: Out}",
    );
    expect(runRules(text)).toEqual([
      // Same range: sorted by code (docs/reference/language.md §9.1).
      diag(
        SPEC_FN_INPUT_REQUIRED,
        "functions.work",
        "Function 'work' (mode 'compute') must declare input (use {} when it takes none)",
        span(text, 6, "work"),
      ),
      diag(
        SPEC_FN_INTENT_REQUIRED,
        "functions.work",
        "Function 'work' (mode 'compute') must have a non-empty intent",
        span(text, 6, "work"),
      ),
      diag(
        SPEC_FN_INPUT_REQUIRED,
        "functions.other",
        "Function 'other' (mode 'infer') must declare input (use {} when it takes none)",
        span(text, 7, "other"),
      ),
    ]);
    expect(runPhases(text).structure).toEqual([]);
  });

  it("do not apply to gate functions, nor to 0.1 documents (SCHEMA-REQUIRED there)", () => {
    clean(fns("  g: {mode: gate}"));
    const v01 = [
      'version: "0.1"',
      "contracts: {Out: {}}",
      "functions:",
      "  w: {mode: infer, output: Out}",
      "",
    ].join("\n");
    const run = runPhases(v01);
    expect(run.rules).toEqual([]);
    expect(run.structure.map((d) => d.code)).toContain("SCHEMA-REQUIRED");
  });
});

describe("SPEC-FN-TIMEOUT-NOT-GATE", () => {
  it("warns at the timeout key of an infer function", () => {
    const text = fns("  w: {mode: infer, intent: w, input: {}, output: Out, timeout: 60}");
    expect(runRules(text)).toEqual([
      diag(
        SPEC_FN_TIMEOUT_NOT_GATE,
        "functions.w.timeout",
        "Function 'w' has timeout, which only applies to gate functions",
        span(text, 6, "timeout"),
      ),
    ]);
  });

  it("accepts timeout on a gate function", () => {
    clean(fns("  g: {mode: gate, timeout: 3600}"));
  });
});
