// Applying the fixes the rules offer: the edited document no longer has the diagnostic and is
// structurally clean. Also names that are Object.prototype members, and CRLF line breaks.
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../../checker/diagnostic";
import { runPhases, runRules, STEP_LINE, span, withLines, withSteps } from "./support";

/** Offset of a 1-based line/column in an ASCII text with any line breaks. */
function offset(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const lf = text.indexOf("\n", at);
    const cr = text.indexOf("\r", at);
    const next = cr >= 0 && (lf < 0 || cr < lf) ? cr + (text[cr + 1] === "\n" ? 2 : 1) : lf + 1;
    at = next;
  }
  return at + column - 1;
}

function applyFix(text: string, d: Diagnostic): string {
  if (d.fix === undefined) throw new Error(`${d.code} has no fix`);
  let out = text;
  for (const e of [...d.fix.edits].reverse()) {
    out =
      out.slice(0, offset(text, e.line, e.column)) +
      e.new_text +
      out.slice(offset(text, e.end_line, e.end_column));
  }
  return out;
}

/** Applies the fix of the only diagnostic and returns the result's diagnostics. */
function fixed(text: string): { text: string; after: ReturnType<typeof runPhases> } {
  const before = runRules(text);
  expect(before).toHaveLength(1);
  const edited = applyFix(text, before[0] as Diagnostic);
  return { text: edited, after: runPhases(edited) };
}

describe("applying fixes", () => {
  it("inserts a missing gate route into a flow mapping", () => {
    const { text, after } = fixed(withSteps("{id: r, function: review, on_approve: null, on_revise: a}"));
    expect(text).toContain("{id: r, function: review, on_approve: null, on_revise: a, on_kill: null}");
    expect(after).toEqual({ rules: [], structure: [] });
  });

  it("inserts a missing gate route into a block mapping, after a trailing comment", () => {
    const { text, after } = fixed(
      withLines(
        "      - id: r",
        "        function: review",
        "        on_revise: a",
        "        on_kill: ~ # stop",
      ),
    );
    expect(text).toContain("        on_kill: ~ # stop\n        on_approve: null\n");
    expect(after).toEqual({ rules: [], structure: [] });
  });

  it("keeps CRLF line breaks when inserting", () => {
    const lf = withLines(
      "      - id: r",
      "        function: review",
      "        on_revise: a",
      "        on_approve: ~",
    );
    const crlf = lf.replace(/\n/g, "\r\n");
    const d = runRules(crlf);
    expect(d.map((x) => [x.code, x.line, x.column])).toEqual([["SPEC-GATE-ROUTE-UNDECLARED", STEP_LINE, 13]]);
    const { text, after } = fixed(crlf);
    expect(text).toContain("        on_approve: ~\r\n        on_kill: null\r\n");
    expect(after).toEqual({ rules: [], structure: [] });
  });

  it("inserts after a block scalar that ends the step", () => {
    const { text, after } = fixed(
      withLines(
        "      - id: r",
        "        function: review",
        "        on_approve: null",
        "        on_revise: a",
        "        skip_if: >-",
        "          False",
      ),
    );
    expect(text).toContain("          False\n        on_kill: null\n");
    expect(after).toEqual({ rules: [], structure: [] });
  });

  it("renames to the single close match", () => {
    for (const step of [
      "{id: b, function: wrk}",
      "{id: b, intent: x, output_contract: 'Reprot'}",
      "{id: b, intent: x, next: 'a '}",
    ]) {
      const { after } = fixed(withSteps(step));
      expect(after, step).toEqual({ rules: [], structure: [] });
    }
  });

  it("quotes a replacement that would not load as a plain string", () => {
    const text = [
      'version: "0.2"',
      'contracts: {"yes": {}}',
      "functions:",
      "  w: {mode: infer, intent: w, input: {}, output: ye}",
      "",
    ].join("\n");
    const d = runRules(text);
    expect(d[0]?.fix?.edits).toEqual([{ ...span(text, 4, "ye"), new_text: '"yes"' }]);
    expect(fixed(text).after).toEqual({ rules: [], structure: [] });
  });
});

describe("names that are Object.prototype members", () => {
  it("are ordinary names everywhere", () => {
    const text = [
      'version: "0.2"',
      "contracts:",
      "  __proto__: {toString: {type: constructor}}",
      "functions:",
      "  constructor: {mode: infer, intent: w, input: {}, output: __proto__}",
      "flows:",
      "  f:",
      "    input: {}",
      "    output: hasOwnProperty",
      "    steps:",
      "      - {id: __proto__, function: constructor, next: toString}",
      "      - {id: b, function: valueOf, output_contract: __proto__}",
      "",
    ].join("\n");
    expect(runRules(text).map((d) => [d.code, d.path])).toEqual([
      ["SPEC-CONTRACT-FIELD-TYPE-UNKNOWN", "contracts.__proto__.toString.type"],
      ["SPEC-FLOW-OUTPUT-CONTRACT-UNDEFINED", "flows.f.output"],
      ["SPEC-ROUTE-UNKNOWN-STEP", "flows.f.steps.__proto__.next"],
      ["SPEC-STEP-FUNCTION-UNDEFINED", "flows.f.steps.b.function"],
    ]);
  });
});
