// Checking a scenario test file never throws, and every diagnostic lies inside the file, whatever
// the text: random edits of a valid test file (deleted, inserted and replaced characters), whose
// spec checks clean, so the edits reach every phase (shape, steps, contracts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkScenario } from "../../../checker/index";

const FIXTURES = join(import.meta.dirname, "fixtures");
const SPEC = readFileSync(join(FIXTURES, "release.stratum.yaml"), "utf8");
const VALID = readFileSync(join(FIXTURES, "TEST-SCHEMA/valid.stratum-test.yaml"), "utf8");

const edit = fc.record({
  at: fc.nat(),
  remove: fc.nat({ max: 6 }),
  insert: fc.string({ maxLength: 4 }),
  yamlish: fc.constantFrom(
    "",
    ":",
    "-",
    "{",
    "}",
    "[",
    "]",
    "\n",
    "  ",
    "#",
    "'",
    '"',
    "step",
    "gate",
    "&a",
    "*a",
  ),
});

function apply(
  text: string,
  edits: readonly { at: number; remove: number; insert: string; yamlish: string }[],
) {
  let t = text;
  for (const e of edits) {
    const at = e.at % (t.length + 1);
    t = t.slice(0, at) + e.yamlish + e.insert + t.slice(at + e.remove);
  }
  return t;
}

describe("checkScenario on edited test files", () => {
  it("never throws and keeps every diagnostic inside the text", () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        const text = apply(VALID, edits);
        const result = checkScenario(text, () => ({ ok: true, text: SPEC }));
        const lines = text.split(/\r\n|\r|\n/);
        for (const d of result.diagnostics) {
          expect(d.line).toBeGreaterThanOrEqual(1);
          expect(d.end_line).toBeLessThanOrEqual(lines.length);
          expect(d.end_line > d.line || (d.end_line === d.line && d.end_column >= d.column)).toBe(true);
        }
        expect(result.valid).toBe(!result.diagnostics.some((d) => d.severity === "error"));
      }),
      { seed: 34, numRuns: 150 },
    );
  });

  it("the unedited file checks clean (the property starts from a valid text)", () => {
    expect(checkScenario(VALID, () => ({ ok: true, text: SPEC })).diagnostics).toEqual([]);
  });
});
