// checker/fix.ts: applying the checker's machine-applicable fixes (`stratumc check --fix`).
// Property: on every fixture with a fixable diagnostic — the repository's broken
// examples, golden specs, the recorded conformance cases, and random one-character mutations of
// the clean examples — fixing leaves no fixable diagnostic of that code, removes the code entirely
// when all its diagnostics were fixable, introduces no new error, and is idempotent.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../checker/check-spec";
import type { Diagnostic } from "../../checker/diagnostic";
import { applyFixEdits, fixSpec, isMachineApplicable, MAX_FIX_PASSES } from "../../checker/fix";
import { BROKEN, CLEAN, WARNINGS } from "../cli/spec-fixtures";

const REPO = join(import.meta.dirname, "../..");

function specsIn(dir: string): string[] {
  return readdirSync(join(REPO, dir))
    .filter((f) => /\.stratum\.ya?ml$/.test(f))
    .sort()
    .map((f) => readFileSync(join(REPO, dir, f), "utf8"));
}

const CLEAN_SPECS = [...specsIn("examples"), CLEAN];
const FIXTURES: readonly string[] = [
  ...specsIn("examples/broken"),
  ...specsIn("test/golden/specs"),
  BROKEN,
  WARNINGS,
  ...readFileSync(join(REPO, "test/conformance/recorded/validation.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => (JSON.parse(l) as { yaml: string }).yaml),
];

const key = (d: Diagnostic) => `${d.code}\u0000${d.message}`;

/** The fix properties for one text; returns whether it had anything to fix. */
function checkFixProperties(text: string): boolean {
  const outcome = fixSpec(text);
  const original = outcome.original;
  const fixable = original.diagnostics.filter((d) => isMachineApplicable(d.fix));
  if (fixable.length === 0) {
    expect(outcome.status).toBe("unchanged");
    expect(outcome.text).toBe(text);
    return false;
  }
  if (outcome.status === "refused" && outcome.reason === "yaml") return true;
  const fixed: CheckResult = outcome.fixed;
  expect(outcome.passes).toBeLessThan(MAX_FIX_PASSES);
  // Every pass applied something, and the last text has nothing left to apply.
  expect(outcome.applied.length).toBeGreaterThan(0);
  expect(fixed.diagnostics.filter((d) => isMachineApplicable(d.fix))).toEqual([]);
  for (const code of new Set(fixable.map((d) => d.code))) {
    const before = original.diagnostics.filter((d) => d.code === code);
    const after = fixed.diagnostics.filter((d) => d.code === code);
    expect(after.length, code).toBeLessThan(before.length);
    if (before.every((d) => isMachineApplicable(d.fix))) expect(after, code).toEqual([]);
  }
  // No new error: every error after fixing was there before (same code and message).
  const known = new Set(original.errors.map(key));
  expect(fixed.errors.filter((d) => !known.has(key(d)))).toEqual([]);
  // The outcome: written only when clean of errors; fixing the result again changes nothing.
  if (outcome.status === "fixed") {
    expect(fixed.valid).toBe(true);
    expect(outcome.text).toBe(fixed.source.text);
    expect(fixSpec(outcome.text).status).toBe("unchanged");
  } else {
    expect(outcome.status).toBe("refused");
    expect(outcome.reason).toBe("errors-remain");
    expect(outcome.text).toBe(text);
    expect(fixed.valid).toBe(false);
  }
  return true;
}

describe("applyFixEdits", () => {
  it("applies non-overlapping fixes at once, keeps code-point columns and line endings", () => {
    const text =
      'version: 0.2\r\nflows:\r\n  main:\r\n    input: {}\r\n    steps:\r\n      - id: "bü😀ld"\r\n        intent: "x"\r\n      - id: b\r\n        depends_on: ["bü😀l"]\r\n        intentt: "y"\r\n';
    const outcome = fixSpec(text);
    expect(outcome.status).toBe("fixed");
    expect(outcome.text).toBe(
      text
        .replace("version: 0.2", 'version: "0.2"')
        .replace('["bü😀l"]', '["bü😀ld"]')
        .replace("intentt", "intent"),
    );
    expect(outcome.passes).toBe(1);
  });

  it("defers a fix whose edits overlap one already taken, applies identical fixes once", () => {
    const edit = { line: 1, column: 1, end_line: 1, end_column: 4, new_text: "xyz" };
    const d = (new_text: string, code = "X"): Diagnostic => ({
      success: false,
      error_type: "ir_semantic_error",
      path: "",
      message: code,
      code,
      severity: "error",
      line: 1,
      column: 1,
      end_line: 1,
      end_column: 2,
      fix: { description: "f", edits: [{ ...edit, new_text }] },
    });
    const pass = applyFixEdits("abcdef", [d("xyz", "A"), d("xyz", "B"), d("other", "C")]);
    expect(pass.text).toBe("xyzdef");
    expect(pass.applied.map((x) => x.code)).toEqual(["A", "B"]);
    expect(pass.deferred.map((x) => x.code)).toEqual(["C"]);
  });

  it("does not apply a fix marked machine_applicable: false", () => {
    const d: Diagnostic = {
      success: false,
      error_type: "ir_semantic_error",
      path: "",
      message: "m",
      code: "X",
      severity: "error",
      line: 1,
      column: 1,
      end_line: 1,
      end_column: 2,
      fix: {
        description: "maybe",
        edits: [{ line: 1, column: 1, end_line: 1, end_column: 2, new_text: "z" }],
        machine_applicable: false,
      },
    };
    expect(isMachineApplicable(d.fix)).toBe(false);
    expect(applyFixEdits("abc", [d]).text).toBe("abc");
  });
});

describe("fixSpec", () => {
  it("refuses a text whose errors it cannot fix (nothing to write), and a text with YAML errors", () => {
    const both = BROKEN.replace('intent: "Then this"', 'intentt: "Then this"\n        function: nowhere');
    const outcome = fixSpec(both);
    expect([outcome.status, outcome.reason, outcome.text]).toEqual(["refused", "errors-remain", both]);
    expect(outcome.fixed.valid).toBe(false);
    expect(outcome.applied.map((d) => d.code)).toEqual(["SPEC-DEPENDS-ON-UNKNOWN", "SCHEMA-UNKNOWN-KEY"]);
    const yaml = fixSpec(`${BROKEN}  bad: [\n`);
    expect(yaml.status === "unchanged" || yaml.reason === "yaml").toBe(true);
  });

  it("leaves a clean spec unchanged", () => {
    for (const text of CLEAN_SPECS) expect(fixSpec(text).status).toBe("unchanged");
  });

  it("fixes re-checked pass after pass (a fix that reveals another)", () => {
    // The misspelled `stepps` hides the step's own typo until it is renamed.
    const text =
      'version: 0.2\nflows:\n  main:\n    input: {}\n    stepps:\n      - id: a\n        intentt: "x"\n';
    const outcome = fixSpec(text);
    expect(outcome.status).toBe("fixed");
    expect(outcome.text).toBe(
      'version: "0.2"\nflows:\n  main:\n    input: {}\n    steps:\n      - id: a\n        intent: "x"\n',
    );
    expect(outcome.passes).toBe(2);
  });
});

describe("property: --fix on every fixture with a fix checks clean of that code", () => {
  it("holds for the repository's fixtures", () => {
    const fixable = FIXTURES.filter((text) => checkFixProperties(text));
    expect(fixable.length).toBeGreaterThan(3);
  });

  it("holds for one-character typos in the clean examples' names and an unquoted version", () => {
    // Typos in words of the text (keys, ids, names, types): deletion, doubling, swap, replacement.
    const words = CLEAN_SPECS.map((text) => [...text.matchAll(/[A-Za-z_]{4,}/g)].map((m) => m.index));
    const mutation = fc.integer({ min: 0, max: CLEAN_SPECS.length - 1 }).chain((s) =>
      fc.record({
        spec: fc.constant(s),
        word: fc.integer({ min: 0, max: (words[s] as number[]).length - 1 }),
        offset: fc.nat(3),
        kind: fc.constantFrom("delete", "double", "swap", "replace"),
        letter: fc.constantFrom(..."aeiourstx"),
        unquote: fc.boolean(),
      }),
    );
    let withFix = 0;
    fc.assert(
      fc.property(mutation, (m) => {
        const text = CLEAN_SPECS[m.spec] as string;
        const at = ((words[m.spec] as number[])[m.word] as number) + m.offset;
        const c = text[at] as string;
        const mutated =
          m.kind === "delete"
            ? text.slice(0, at) + text.slice(at + 1)
            : m.kind === "double"
              ? text.slice(0, at) + c + text.slice(at)
              : m.kind === "swap"
                ? text.slice(0, at) + text.slice(at + 1, at + 2) + c + text.slice(at + 2)
                : text.slice(0, at) + m.letter + text.slice(at + 1);
        const final = m.unquote ? mutated.replace(/^version: "(0\.[12])"/m, "version: $1") : mutated;
        if (checkFixProperties(final)) withFix++;
      }),
      { numRuns: Number(process.env.FIX_RUNS ?? 300), seed: 12 },
    );
    expect(withFix).toBeGreaterThan(30);
  });
});
