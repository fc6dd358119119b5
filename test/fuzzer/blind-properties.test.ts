// Property specs written apart from the implementation (test/fuzzer/blind-properties/, from the user
// docs only; RESULTS.md compares the blind predictions with what stratumc said). Each folder's
// expected.yaml says what to hold the tool to: `assert` per property — violated on every seed,
// proven exactly, not violated, or not proven — and, for the spec with mistakes in its properties,
// the checker diagnostic each one gets. Entries marked `known_tool_issue` are the tool's mistakes
// and are not asserted until they are fixed.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { checkSpec } from "../../checker/index";
import { fuzzSpec } from "../../fuzzer/index";

const DIR = resolve(import.meta.dirname, "blind-properties");
const SEEDS = [1, 2, 3];
/** Few random runs keep the file fast; every assertion here holds at this size on these seeds. */
const RUNS = 20;

type Assertion = "violated" | "proven" | "not_violated" | "not_proven";

interface Expected {
  readonly assert?: Assertion;
  readonly diagnostic?: string;
  readonly known_tool_issue?: string;
}

function folders(): string[] {
  return readdirSync(DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== "tool-issues")
    .map((e) => e.name)
    .sort();
}

function load(folder: string): { spec: string; expected: Record<string, Expected> } {
  const spec = readFileSync(join(DIR, folder, "spec.stratum.yaml"), "utf8");
  const expected = parse(readFileSync(join(DIR, folder, "expected.yaml"), "utf8")) as Record<
    string,
    Expected
  >;
  return { spec, expected };
}

/** The 1-based lines a property's block spans in the spec text: its name's line up to the next one. */
function propertyLines(spec: string, names: readonly string[]): Map<string, [number, number]> {
  const lines = spec.split("\n");
  const start = lines.indexOf("properties:");
  const heads: [string, number][] = [];
  lines.forEach((l, i) => {
    const m = /^ {2}([^\s:#][^:]*):\s*$/.exec(l);
    if (i > start && m?.[1] !== undefined && names.includes(m[1])) heads.push([m[1], i + 1]);
  });
  return new Map(heads.map(([n, line], i) => [n, [line, (heads[i + 1]?.[1] ?? lines.length + 1) - 1]]));
}

function judge(verdict: string | undefined, assertion: Assertion): void {
  if (assertion === "violated" || assertion === "proven") expect(verdict).toBe(assertion);
  else if (assertion === "not_violated") expect(["proven", "not_refuted"]).toContain(verdict);
  else expect(["violated", "not_refuted"]).toContain(verdict);
}

const fuzzed = folders().filter((f) =>
  Object.values(load(f).expected).every((e) => e.diagnostic === undefined),
);
const checked = folders().filter((f) => !fuzzed.includes(f));

describe("blind property specs", () => {
  it("has folders of both kinds", () => {
    expect(fuzzed.length).toBeGreaterThanOrEqual(8);
    expect(checked.length).toBeGreaterThanOrEqual(1);
  });

  describe.each(fuzzed)("%s", (folder) => {
    const { spec, expected } = load(folder);
    it("checks without errors, and every property has an expectation", () => {
      expect(checkSpec(spec).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      const named = [...propertyLines(spec, Object.keys(expected)).keys()].sort();
      expect(named).toEqual(Object.keys(expected).sort());
    });
    it.each(SEEDS)("gets the asserted verdicts (seed %i)", async (seed) => {
      const { report } = await fuzzSpec(spec, { seed, runs: RUNS });
      const verdicts = report?.properties ?? {};
      expect(Object.keys(verdicts).sort()).toEqual(Object.keys(expected).sort());
      for (const [name, e] of Object.entries(expected)) {
        if (e.known_tool_issue !== undefined || e.assert === undefined) continue;
        // The property's name leads a failure message: which one is off.
        expect({ name, verdict: verdicts[name]?.verdict }).toEqual({ name, verdict: expect.any(String) });
        judge(verdicts[name]?.verdict, e.assert);
      }
      // A violated verdict comes with its finding, at the property's name.
      const violated = Object.entries(verdicts).filter(([, p]) => p.verdict === "violated");
      const findings = report?.findings.filter((f) => f.code === "FUZZ-PROPERTY-VIOLATED") ?? [];
      expect(findings.map((f) => f.line).sort()).toEqual(violated.map(([, p]) => p.line).sort());
      for (const f of findings) expect(f.counterexample?.calls.length ?? 0).toBeGreaterThan(0);
    });
  });

  describe.each(checked)("%s", (folder) => {
    const { spec, expected } = load(folder);
    it("reports each mistaken property with the expected diagnostic", () => {
      const diagnostics = checkSpec(spec).diagnostics;
      const spans = propertyLines(spec, Object.keys(expected));
      for (const [name, e] of Object.entries(expected)) {
        if (e.known_tool_issue !== undefined || e.diagnostic === undefined) continue;
        const [from, to] = spans.get(name) ?? [0, -1];
        const here = diagnostics.filter((d) => d.line >= from && d.line <= to).map((d) => d.code);
        expect({ name, codes: here }).toEqual({ name, codes: [e.diagnostic] });
      }
    });
  });
});
