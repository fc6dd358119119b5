// Quorum steps in the checker (stratumc's extension, docs/reference/language.md §6.5): the kind `type`
// selects, the key rules with their exact ranges, agree_on typed against the output contract,
// the result type R(s), the IR with the threshold default, and the keys only from 0.3 on.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../../checker/check-spec";

function quorumSpec(step: string, version = "0.3"): string {
  return [
    `version: "${version}"`,
    "contracts:",
    "  Classification:",
    "    severity: {type: string}",
    "    labels: {type: array, items: {type: string}}",
    "flows:",
    "  main:",
    "    input: {}",
    "    steps:",
    "      - id: classify",
    "        type: quorum",
    "        intent: Classify",
    "        output_contract: Classification",
    ...step.split("\n").map((l) => `        ${l}`),
    "      - id: use",
    '        intent: "Use {x}"',
    "        inputs: {x: $.steps.classify.output.severity}",
    "        depends_on: [classify]",
    "",
  ].join("\n");
}

function diagnostics(text: string): string[] {
  return checkSpec(text).diagnostics.map(
    (d) => `${d.code} ${d.line}:${d.column}-${d.end_line}:${d.end_column} ${d.message}`,
  );
}

describe("quorum steps", () => {
  it("a complete step is valid; its IR carries runs, agree_on and the threshold as written", () => {
    const checked = checkSpec(quorumSpec('runs: 5\nagree_on: "result.severity"\nthreshold: 0.6'));
    expect(checked.diagnostics).toEqual([]);
    const step = checked.ir?.flows.get("main")?.stepById.get("classify");
    expect(step?.kind).toBe("quorum");
    expect(step?.retries).toBe(1);
    expect(step?.quorum?.runs).toBe(5);
    expect(step?.quorum?.agreeOn.text).toBe("result.severity");
    expect(step?.quorum?.agreeOn.type).toEqual({ k: "str" });
    expect(step?.quorum?.threshold).toEqual({ value: 0.6, float: true });
  });

  it("without threshold the IR holds a majority of runs", () => {
    const step = checkSpec(quorumSpec('runs: 4\nagree_on: "result.severity"'))
      .ir?.flows.get("main")
      ?.stepById.get("classify");
    expect(step?.quorum?.threshold).toEqual({ value: 3, float: false });
  });

  it("agree_on is type-checked with result of the output contract's type", () => {
    expect(diagnostics(quorumSpec('runs: 3\nagree_on: "result.severty"'))).toEqual([
      "EXPR-UNKNOWN-FIELD 15:27-15:34 contract 'Classification' has no field 'severty'",
    ]);
    const [d] = checkSpec(quorumSpec('runs: 3\nagree_on: "result.severty"')).diagnostics;
    expect(d?.path).toBe("flows.main.steps.classify.agree_on");
  });

  it("a list-typed agree_on is unhashable, at the expression's range", () => {
    expect(diagnostics(quorumSpec('runs: 3\nagree_on: "result.labels"'))).toEqual([
      "SPEC-QUORUM-AGREE-ON-UNHASHABLE 15:20-15:33 agree_on of quorum step 'classify' has type list[str], which cannot be a grouping key (unhashable)",
    ]);
  });

  it("an integer threshold above runs can never be met; an integral float counts as its integer", () => {
    expect(diagnostics(quorumSpec('runs: 3\nagree_on: "result.severity"\nthreshold: 4.0'))).toEqual([
      "SPEC-QUORUM-THRESHOLD-UNREACHABLE 16:20-16:23 Quorum step 'classify' has threshold 4 but only 3 runs: the quorum can never be reached",
    ]);
    expect(diagnostics(quorumSpec('runs: 3\nagree_on: "result.severity"\nthreshold: 3.0'))).toEqual([]);
  });

  it("missing keys are reported at the step", () => {
    expect(diagnostics(quorumSpec("retries: 2")).map((d) => d.split(" ").slice(0, 2).join(" "))).toEqual([
      "SPEC-QUORUM-MISSING-KEY 10:13-10:21",
      "SPEC-QUORUM-MISSING-KEY 10:13-10:21",
    ]);
  });

  it("the $.steps.<quorum>.output type is the output contract's (an unknown field is reported)", () => {
    const text = quorumSpec('runs: 3\nagree_on: "result.severity"').replace(
      "output.severity}",
      "output.sevrity}",
    );
    expect(checkSpec(text).diagnostics.map((d) => d.code)).toEqual(["SPEC-REF-UNKNOWN-FIELD"]);
  });

  it("the quorum keys and type: quorum do not exist before 0.3", () => {
    const codes = checkSpec(quorumSpec('runs: 3\nagree_on: "result.severity"', "0.2")).diagnostics.map(
      (d) => d.code,
    );
    expect(codes).toContain("SCHEMA-UNKNOWN-KEY");
    expect(codes.every((c) => c.startsWith("SCHEMA-"))).toBe(true);
  });
});
