// Replays every case of test/conformance/recorded/validation.jsonl through checkSpec and compares the
// result with the case's `expect` (test/conformance/recorded/README.md §1.1): validity, error triples
// (family, path, line) with the structural exception, and the expected warnings. A second test
// applies the optional stricter check (item 5): same path as the reference → same message.

import { describe, expect, it } from "vitest";
import { familyOf } from "../../checker/catalogue";
import { type CheckResult, checkSpec } from "../../checker/check-spec";
import {
  compareWithExpect,
  listDiagnostics,
  loadValidationCases,
  type MessageMismatch,
  messageMismatches,
  RETIRED_DIVERGENCES,
  type ValidationCase,
} from "../support/spec-conformance";

const CASES = loadValidationCases();

/**
 * Reference messages we deliberately do not reproduce at the same path, each with the divergence
 * of divergences.md that changes the wording.
 */
const DOCUMENTED_MESSAGE_DIVERGENCES: ReadonlyMap<string, string> = new Map([
  // DIV-RECURSION: our message is extended with the call chain `(f -> … -> f)`.
  ["flow_self_recursive", "DIV-RECURSION"],
  ["recursion_indirect_three", "DIV-RECURSION"],
]);

function run(c: ValidationCase): CheckResult {
  return checkSpec(c.yaml);
}

function report(c: ValidationCase, result: CheckResult, problems: readonly string[]): string {
  const lines = [
    `case ${c.name}: ${c.description}${c.divergence ? ` [${c.divergence}: ${c.divergence_note ?? ""}]` : ""}`,
    ...problems.map((p) => `  - ${p}`),
    "  expected:",
    `    valid ${c.expect.valid}; errors ${JSON.stringify(c.expect.errors)}${
      c.expect.warnings ? `; warnings ${JSON.stringify(c.expect.warnings)}` : ""
    }`,
    `  ours (valid ${result.valid}):`,
    listDiagnostics(result),
  ];
  return lines.join("\n");
}

describe("validation.jsonl", () => {
  it("holds the 156 recorded cases with unique names", () => {
    expect(CASES).toHaveLength(156);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  for (const c of CASES) {
    it(c.name, () => {
      const result = run(c);
      if (RETIRED_DIVERGENCES.has(c.name)) {
        expect(c.reference.valid, "the retired divergence made a valid spec invalid").toBe(true);
        if (!result.valid) expect.fail(report(c, result, [RETIRED_DIVERGENCES.get(c.name) ?? ""]));
        return;
      }
      const problems = compareWithExpect(c, result, familyOf);
      if (problems.length > 0) expect.fail(report(c, result, problems));
    });
  }
});

describe("validation.jsonl — messages (test/conformance/recorded/README.md §1.1 item 5)", () => {
  it("keeps the reference's message wherever we report at the reference's path", () => {
    const mismatches: MessageMismatch[] = [];
    for (const c of CASES) {
      let result: CheckResult;
      try {
        result = run(c);
      } catch {
        continue; // the per-case test reports the crash
      }
      mismatches.push(...messageMismatches(c, result));
    }
    const undocumented = mismatches.filter((m) => !DOCUMENTED_MESSAGE_DIVERGENCES.has(m.name));
    const text = undocumented
      .map(
        (m) =>
          `${m.name} at ${m.path}:\n  reference: ${m.reference}\n  ours:      ${m.ours.join("\n             ")}`,
      )
      .join("\n");
    expect(undocumented, text).toEqual([]);
    // Every documented divergence is still a real difference (no stale entries).
    const seen = new Set(mismatches.map((m) => m.name));
    expect([...DOCUMENTED_MESSAGE_DIVERGENCES.keys()].filter((n) => !seen.has(n))).toEqual([]);
  });
});
