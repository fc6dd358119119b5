// Extreme documents through the whole pipeline: a spec just under the 8 MiB size limit (and a 10 MB
// one, refused), 10,000-deep nesting in flow and block style, an alias bomb. Each must complete with a clear, located result (no timing assertions: a
// hang or a crash is what these tests catch).

import { describe, expect, it } from "vitest";
import { type CheckResult, checkSpec } from "../../../checker/check-spec";
import { MAX_SPEC_BYTES } from "../../../checker/yaml/rules/YAML-TOO-LARGE";
import {
  aliasBomb,
  deepBlockMapping,
  deepBlockSequence,
  deepFlowMapping,
  deepFlowSequence,
  largeValidSpec,
  lineOf,
} from "../../support/spec-generate";
import { locationProblems, resultShapeProblems } from "../../support/spec-ranges";

const TEN_MB = 10 * 1024 * 1024;

function checked(text: string): CheckResult {
  const result = checkSpec(text);
  expect(locationProblems(text, result.diagnostics)).toEqual([]);
  expect(resultShapeProblems(result)).toEqual([]);
  return result;
}

function summary(result: CheckResult): string[] {
  return result.diagnostics.map(
    (d) => `${d.line}:${d.column} ${d.code} ${d.path}: ${d.message.slice(0, 200)}`,
  );
}

describe("a big spec", () => {
  // yaml.parseDocument alone needs seconds for 8 MB on a busy 2-core machine: a generous timeout.
  it("checks clean just under the size limit and yields the IR of every flow", () => {
    const big = largeValidSpec(MAX_SPEC_BYTES - 64 * 1024);
    expect(big.text.length).toBeGreaterThanOrEqual(MAX_SPEC_BYTES - 64 * 1024);
    expect(big.text.length).toBeLessThanOrEqual(MAX_SPEC_BYTES);
    const result = checked(big.text);
    expect(summary(result)).toEqual([]);
    expect(result.ir?.flows.size).toBe(big.flows);
    const last = result.ir?.flows.get(`flow_${big.flows - 1}`);
    expect(last?.steps.map((s) => s.id)).toEqual(Array.from({ length: big.stepsPerFlow }, (_, i) => `s${i}`));
  }, 180_000);

  it("refuses a 10 MB spec up front with one YAML-TOO-LARGE", () => {
    const big = largeValidSpec(TEN_MB);
    const result = checked(big.text);
    expect(summary(result)).toEqual([
      `1:1 YAML-TOO-LARGE : Spec is too large (${big.text.length} bytes; the limit is ${MAX_SPEC_BYTES} bytes, 8 MiB)`,
    ]);
    expect(result.model).toBeNull();
  });

  it("a 1 MB spec locates a single typo near its end, with did-you-mean", () => {
    const big = largeValidSpec(1024 * 1024);
    const at = big.text.lastIndexOf("function: work");
    const text = `${big.text.slice(0, at)}function: wrk${big.text.slice(at + "function: work".length)}`;
    const result = checked(text);
    const line = text.slice(0, at).split("\n").length;
    const step = `s${big.stepsPerFlow - 2}`;
    expect(summary(result)).toEqual([
      `${line}:19 SPEC-STEP-FUNCTION-UNDEFINED flows.flow_${big.flows - 1}.steps.${step}.function: Step '${step}' references undefined function 'wrk'`,
    ]);
    expect(result.errors[0]?.suggestion).toBe("Did you mean 'work'?");
  }, 60_000);
});

describe("10,000-deep nesting", () => {
  const DEPTH = 10_000;
  // [name, text, the line the nesting error is on (null: anywhere in the nested block)]
  const CASES: ReadonlyArray<readonly [string, string, number | null]> = [
    ["a flow sequence [[[…]]] as the value of flows", deepFlowSequence(DEPTH), 2],
    ["a flow mapping {type: {type: …}} as a contract field", deepFlowMapping(DEPTH), 4],
    ["block sequences - - - … on one line as steps", deepBlockSequence(DEPTH), 6],
    // 3,000 levels: one more space per level makes 10,000 levels 50 MB, over the size limit.
    ["block mappings indented one more space per level", deepBlockMapping(3_000), null],
  ];

  for (const [name, text, line] of CASES) {
    it(`${name}: one located YAML error about the nesting`, () => {
      const result = checked(text);
      expect(result.valid).toBe(false);
      expect(result.model).toBeNull();
      const [only, ...rest] = result.diagnostics;
      expect(rest.length, summary(result).join("\n")).toBe(0);
      expect(only?.code).toBe("YAML-SYNTAX");
      expect(only?.message).toMatch(/^YAML syntax error: .*nest/i);
      if (line !== null) expect(only?.line).toBe(line);
      else expect(only?.line).toBeGreaterThanOrEqual(3);
    }, 30_000);
  }
});

describe("an alias bomb", () => {
  it("stops at the alias limit with YAML-ALIAS-LIMIT on the offending line", () => {
    const bomb = aliasBomb();
    const result = checked(bomb.text);
    expect(result.valid).toBe(false);
    const limit = result.errors.filter((d) => d.code === "YAML-ALIAS-LIMIT");
    expect(
      limit.map((d) => [d.message, d.path, d.error_type]),
      summary(result).join("\n"),
    ).toEqual([["YAML syntax error: too many alias expansions (limit 100)", "", "ir_parse_error"]]);
    const line = limit[0]?.line ?? 0;
    expect(line).toBeGreaterThanOrEqual(bomb.firstAliasLine);
    expect(line).toBeLessThanOrEqual(bomb.hundredFirstAliasLine);
    expect(bomb.text.split("\n")[line - 1]).toMatch(/^l\d+: &l\d+ \[\*l\d+/);
    expect(result.model).toBeNull();
  });

  /** Contracts C0…C(n-1), each an alias of Out (which holds no alias itself). */
  function aliasedContracts(n: number): string {
    const lines = ['version: "0.2"', "contracts:", "  Out: &out {v: {type: string}}"];
    for (let i = 0; i < n; i++) lines.push(`  C${i}: *out`);
    return `${lines.join("\n")}\n`;
  }

  it("accepts exactly 100 aliases and rejects the 101st, on its line", () => {
    expect(summary(checked(aliasedContracts(100)))).toEqual([]);
    const text = aliasedContracts(101);
    const result = checked(text);
    expect(summary(result)).toEqual([
      `${lineOf(text, "C100:")}:9 YAML-ALIAS-LIMIT : YAML syntax error: too many alias expansions (limit 100)`,
    ]);
  });
});
