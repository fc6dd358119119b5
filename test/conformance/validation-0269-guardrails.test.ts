// The `guardrails` cases recorded from the reference 0.2.69 (see test/conformance/recorded/README.md
// for the formats): the 14 cases of validation-0269-keys.jsonl and the 9 specs of the reference's own
// test_guardrails in validation-0269.jsonl. Our checker must agree on validity, report an error at
// every path the reference names (its `[i]` written `.i`, our notation), and keep the reference's
// message there — except the structural messages (ir_validation_error), which are ours (D2).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/check-spec";

interface Recorded {
  readonly valid: boolean;
  readonly errors: readonly {
    readonly path?: string;
    readonly message: string;
    readonly error_type: string;
  }[];
}
interface Case {
  readonly name: string;
  readonly yaml: string;
  readonly reference: Recorded;
}

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(new URL(`recorded/${file}`, import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const KEY_CASES: Case[] = lines("validation-0269-keys.jsonl")
  .filter((c) => String(c.name).startsWith("guardrails_"))
  .map((c) => ({ name: String(c.name), yaml: String(c.yaml), reference: c.reference_0269 as Recorded }));
const SUITE_CASES: Case[] = lines("validation-0269.jsonl")
  .filter((c) => String(c.name ?? "").startsWith("mcp.integration.test_guardrails-"))
  .map((c) => ({ name: String(c.name), yaml: String(c.yaml), reference: c.reference as Recorded }));

const normalise = (path: string): string => path.replace(/\[(\d+)\]/gu, ".$1");

function agrees(c: Case): void {
  const result = checkSpec(c.yaml);
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  const listing = errors.map((d) => `${d.code} ${d.path}: ${d.message}`).join("\n");
  expect(result.valid, listing).toBe(c.reference.valid);
  for (const ref of c.reference.errors) {
    const path = normalise(ref.path ?? "");
    const ours = errors.filter((d) => d.path === path);
    expect(ours.length, `no error at ${path}; ours:\n${listing}`).toBeGreaterThan(0);
    if (ref.error_type === "ir_semantic_error") expect(ours.map((d) => d.message)).toContain(ref.message);
  }
}

describe("0.2.69 guardrails validation", () => {
  it("holds the 14 key cases and the 9 test-suite specs", () => {
    expect(KEY_CASES).toHaveLength(14);
    expect(SUITE_CASES).toHaveLength(9);
  });
  for (const c of [...KEY_CASES, ...SUITE_CASES]) it(c.name, () => agrees(c));
});
