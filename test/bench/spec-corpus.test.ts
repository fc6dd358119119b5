// The generated spec corpus of the benchmark: deterministic, within its size range, varied (every
// feature appears), valid where no mistake was planted, and reporting exactly the planted code.
import { describe, expect, it } from "vitest";
import { CORPUS_SIZE } from "../../bench/spec-bench";
import {
  DEFAULT_SEED,
  type GeneratedSpec,
  generateCorpus,
  generateSpec,
  MAX_LINES,
  MIN_LINES,
} from "../../bench/spec-corpus";
import { checkSpec } from "../../checker/check-spec";

const corpus: readonly GeneratedSpec[] = generateCorpus(CORPUS_SIZE);

describe("generateCorpus", () => {
  it("is deterministic and depends on the seed and the index", () => {
    const again = generateCorpus(50);
    expect(again.map((s) => s.text)).toEqual(corpus.slice(0, 50).map((s) => s.text));
    expect(generateSpec(7).text).toBe(corpus[7]!.text);
    expect(generateSpec(7, DEFAULT_SEED + 1).text).not.toBe(corpus[7]!.text);
    expect(new Set(corpus.map((s) => s.text)).size).toBe(corpus.length);
  });

  it("has at least 1,000 specs of 20–300 lines, most of them mid-sized", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(1000);
    const lines = corpus.map((s) => s.lines);
    for (const [i, s] of corpus.entries()) {
      expect(s.lines, s.name).toBe(s.text.split("\n").length - 1);
      expect(s.name).toBe(`spec-${String(i).padStart(4, "0")}.stratum.yaml`);
    }
    expect(Math.min(...lines)).toBeGreaterThanOrEqual(MIN_LINES);
    expect(Math.max(...lines)).toBeLessThanOrEqual(MAX_LINES);
    expect(lines.filter((n) => n < 50).length).toBeGreaterThan(100);
    expect(lines.filter((n) => n > 250).length).toBeGreaterThan(50);
    expect(lines.filter((n) => n >= 60 && n <= 200).length).toBeGreaterThan(400);
  });

  it("covers every part of the format", () => {
    const features: Record<string, RegExp> = {
      "version 0.1": /^version: ["']0\.1["']$/m,
      "workflow block": /^workflow:\n {2}name: [a-z][a-z0-9-]*$/m,
      "gate function": /^ {4}mode: gate$/m,
      "gate step routes": /on_revise: [a-z_0-9]+\n\s+on_kill: (~|null)$/m,
      "gate policy and fallback": /policy_fallback: gate/,
      "inline step": /^\s+(- )?intent: .+\n(.*\n)*?\s+output_contract: /m,
      "sub-flow step": /^\s+(- )?flow: [a-z]/m,
      "$.input reference": /"\$\.input\.[a-z_]+"|: \$\.input\./,
      "$.steps reference to a field": /\$\.steps\.[a-z_0-9]+\.output\.[a-z_]+/,
      "depends_on (flow and block)": /depends_on: \[[a-z_0-9]+/,
      "depends_on block list": /depends_on:\n\s+- [a-z]/,
      on_fail: /^\s+on_fail: [a-z]/m,
      next: /^\s+next: [a-z]/m,
      "skip_if with skip_reason": /skip_if: .+\n\s+skip_reason: /,
      "iteration with accumulator":
        /max_iterations: \d\n\s+exit_criterion: .+\n\s+accumulate: .+\n\s+accumulate_key: /,
      output_schema: /output_schema:\n\s+type: object/,
      "enum field": /values: \[/,
      "optional field": /required: false/,
      "nested contract items": /items: \{type: [A-Z]/,
      "contract-typed field": /(owner|parent|author): \{type: [A-Z]/,
      "block field definition": /^ {4}[a-z_]+:\n {6}type: /m,
      "function budget": /budget: \{ms: \d+, usd: /,
      "comprehension in ensure": / for [a-z] in result\./,
      "literal block scalar": /: \|-?\n/,
      "folded block scalar": /: >-?\n/,
      "folded expression in a list": /- >-\n/,
      "single-quoted scalar": /: '[^']/,
      "double-quoted expression": /- "[^"]+"/,
      "plain expression": /^\s+- (len|result|all|any|not|sum|round|abs)[ .(]/m,
      "YAML anchor and alias": /input: \*[a-z_]+_input/,
      comments: /^\s*# /m,
    };
    for (const [name, pattern] of Object.entries(features)) {
      const count = corpus.filter((s) => pattern.test(s.text)).length;
      expect(count, name).toBeGreaterThanOrEqual(15);
    }
    expect(corpus.filter((s) => s.version === "0.1").length).toBeGreaterThan(100);
  });

  it("plants a mistake in about a tenth of the specs, of every kind", () => {
    const planted = corpus.filter((s) => s.planted !== null);
    expect(planted.length).toBeGreaterThan(50);
    expect(planted.length).toBeLessThan(150);
    expect(new Set(planted.map((s) => s.planted))).toEqual(
      new Set([
        "EXPR-UNKNOWN-FIELD",
        "SCHEMA-UNKNOWN-KEY",
        "SPEC-REF-UNKNOWN-STEP",
        "EXPR-SYNTAX",
        "SPEC-STEP-FUNCTION-UNDEFINED",
        "SCHEMA-TYPE",
      ]),
    );
  });

  it("checks clean without a planted mistake, and reports the planted code otherwise", () => {
    for (const s of corpus) {
      const r = checkSpec(s.text);
      if (s.planted === null) {
        expect(
          r.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`),
          s.name,
        ).toEqual([]);
        expect(r.ir, s.name).not.toBeNull();
      } else {
        expect(r.valid, s.name).toBe(false);
        expect(
          r.diagnostics.map((d) => d.code),
          s.name,
        ).toContain(s.planted);
      }
    }
  });
});
