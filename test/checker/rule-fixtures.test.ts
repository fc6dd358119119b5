// Every diagnostic code has a fixture folder (test/checker/rule-fixtures/<CODE>/, see its README)
// and a documented declaration; each folder's fixtures report exactly what their annotations say.
// A new code without fixtures, docs or an example fails here.
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../checker/catalogue";
import type { RuleInfo } from "../../checker/rule";
import {
  applyFixesOf,
  diagnosticsOf,
  type ExpectedDiagnostic,
  loadRuleFixtures,
  notation,
  parseAnnotations,
} from "./rule-fixtures/tester";

/** Codes whose fixtures live elsewhere, and why. */
const FIXTURES_ELSEWHERE: Readonly<Record<string, string>> = {
  "YAML-TOO-LARGE":
    "needs a spec over 8 MiB; test/hostile/spec-size.test.ts builds one in memory and checks the refusal",
  "YAML-EMPTY":
    "is reported only for a text with nothing but white space, where no annotation comment can stand; test/checker/yaml/load.test.ts checks it on blank texts",
  "SPEC-NOT-PORTABLE":
    "is reported only when the check asks for portability (checkSpec's portable option, check --portable), which fixtures cannot set; test/checker/portable/not-portable.test.ts checks every feature at its range and test/cli/check-portable.test.ts the command",
  "FUZZ-INTERNAL":
    "reports a bug of the interpreter itself, which no spec can cause on purpose; test/fuzzer/properties.test.ts asserts random specs never produce it",
  "FUZZ-WORKER-FAILED":
    "reports a worker thread that crashed or hung, which no spec causes on purpose; test/cli/fuzz/fuzz-workers.test.ts starts workers that do both",
};
const FUZZ_CORPUS =
  "run-time findings: their fixtures are the seeded-defect corpus test/fuzzer/corpus/ (defects and controls), replayed by test/fuzzer/corpus.test.ts";

const SCENARIO_FIXTURES =
  "findings in scenario test files, not specs: their fixtures are test files in test/checker/scenario/fixtures/<CODE>/, run by test/checker/scenario/fixtures.test.ts";

function fixturesElsewhere(rule: RuleInfo): string | undefined {
  if (rule.family === "scenario") return SCENARIO_FIXTURES;
  return FIXTURES_ELSEWHERE[rule.code] ?? (rule.family === "fuzz" ? FUZZ_CORPUS : undefined);
}

const FOLDERS = loadRuleFixtures();
const BY_CODE = new Map(FOLDERS.map((f) => [f.code, f]));
const RULES = [...CATALOGUE.values()];

describe("every code is declared with its documentation", () => {
  it.each(RULES.map((r) => [r.code, r] as const))("%s", (_code, rule) => {
    expect(rule.title.length, "title").toBeGreaterThan(10);
    expect(rule.title, "a title is one line").not.toMatch(/\n/);
    expect(rule.doc.length, "doc").toBeGreaterThan(rule.title.length);
    expect(rule.example, "example").toBeDefined();
    // YAML-EMPTY's reported example is the empty text itself.
    if (rule.code !== "YAML-EMPTY")
      expect(rule.example?.bad.trim().length ?? 0, "example").toBeGreaterThan(0);
    if (rule.fix !== undefined) expect(rule.fix.length, "fix").toBeGreaterThan(10);
  });
});

describe("every code has fixtures", () => {
  it("each folder is named after a catalogue code", () => {
    expect(FOLDERS.map((f) => f.code).filter((c) => !CATALOGUE.has(c))).toEqual([]);
  });

  it.each(RULES.map((r) => [r.code, r] as const))("%s", (code, rule) => {
    const elsewhere = fixturesElsewhere(rule);
    const folder = BY_CODE.get(code);
    if (elsewhere !== undefined) {
      expect(folder, `${code} has fixtures elsewhere (${elsewhere})`).toBeUndefined();
      return;
    }
    expect(folder, `test/checker/rule-fixtures/${code}/ is missing`).toBeDefined();
    expect(folder?.valid.length ?? 0, "valid fixtures").toBeGreaterThan(0);
    const reporting = folder?.invalid.filter((f) => f.expected.some((e) => e.code === code)) ?? [];
    expect(reporting.length, "invalid fixtures that annotate the code").toBeGreaterThan(0);
  });
});

describe("annotations", () => {
  it("read carets under the line above, explicit positions and end positions", () => {
    const text = ["a: 1", "bb: 2", "#^^ X-ONE", "  # ^ X-TWO to 3:4", "# @1:1-1:2 X-THREE"].join("\n");
    const got = parseAnnotations(text, "t").map(notation);
    expect(got).toEqual(["X-ONE 2:2-2:4", "X-TWO 2:5-3:4", "X-THREE 1:1-1:2"]);
  });

  it("refuse carets past the end of the line", () => {
    expect(() => parseAnnotations("a: 1\n#    ^^^ X-ONE", "t")).toThrow(/past the end/);
  });
});

function sorted(list: readonly ExpectedDiagnostic[]): string[] {
  return list.map(notation).sort();
}

for (const folder of FOLDERS) {
  const rule = CATALOGUE.get(folder.code);
  describe(folder.code, () => {
    for (const fixture of folder.valid) {
      it(`${fixture.name} checks clean`, () => {
        expect(sorted(diagnosticsOf(fixture.text))).toEqual([]);
      });
    }
    for (const fixture of folder.invalid) {
      it(`${fixture.name} reports exactly its annotations`, () => {
        const diagnostics = diagnosticsOf(fixture.text);
        expect(sorted(diagnostics)).toEqual(sorted(fixture.expected));
        const fixable = diagnostics.filter((d) => d.code === folder.code && d.fix !== undefined);
        if (fixable.length === 0) {
          expect(fixture.fixed, "a .fixed file, but the code's diagnostics carry no fix").toBeNull();
          return;
        }
        expect(rule?.fix, `${folder.code} fixes, so its declaration describes the fix`).toBeDefined();
        expect(fixture.fixed, `${fixture.name} needs its .fixed.stratum.yaml`).not.toBeNull();
        const fixed = applyFixesOf(fixture.text, folder.code, diagnostics);
        expect(fixed).toBe(fixture.fixed);
        expect(
          diagnosticsOf(fixed)
            .filter((d) => d.code === folder.code)
            .map(notation),
        ).toEqual([]);
      });
    }
    if (rule?.fix !== undefined) {
      it("its fix is shown by a fixture", () => {
        expect(folder.invalid.some((f) => f.fixed !== null)).toBe(true);
      });
    }
  });
}
