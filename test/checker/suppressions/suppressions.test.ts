// Suppression comments (checker/suppressions.ts): which diagnostics a `# stratum-ignore[CODE]: reason`
// comment removes, and the SUPPRESS-MALFORMED / SUPPRESS-UNUSED diagnostics, with full ranges.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../../checker/catalogue";
import type { Diagnostic, SpecDiagnostic } from "../../../checker/diagnostic";
import type { RuleInfo } from "../../../checker/rule";
import { SpecSource } from "../../../checker/source";
import { applySuppressions, SUPPRESSION_RULES } from "../../../checker/suppressions";

function rule(code: string, severity: "error" | "warning" = "error"): RuleInfo {
  return {
    code,
    severity,
    family: "reference",
    errorType: "ir_semantic_error",
    title: code,
    doc: code,
    message: () => code,
  };
}

/** A small catalogue: what the real one holds for these codes is irrelevant here. */
const KNOWN: ReadonlyMap<string, RuleInfo> = new Map(
  [
    rule("SPEC-DEPENDS-ON-UNKNOWN"),
    rule("SPEC-STEP-UNREACHABLE", "warning"),
    rule("EXPR-TYPE"),
    rule("YAML-DUPLICATE-KEY", "warning"),
    rule("YAML-SYNTAX"),
    ...SUPPRESSION_RULES,
  ].map((r) => [r.code, r]),
);

/** A diagnostic on the `occurrence`-th appearance of `needle` in `text`. */
function diag(text: string, needle: string, code: string, occurrence = 1): SpecDiagnostic {
  let at = -1;
  for (let n = 0; n < occurrence; n++) at = text.indexOf(needle, at + 1);
  if (at < 0) throw new Error(`no ${needle} in text`);
  return {
    code,
    severity: code === "SPEC-STEP-UNREACHABLE" || code === "YAML-DUPLICATE-KEY" ? "warning" : "error",
    errorType: "ir_semantic_error",
    message: `${code} here`,
    path: code.startsWith("YAML-") ? "" : "flows.f",
    range: { start: at, end: at + needle.length },
  };
}

/**
 * The public form, sorted by position (what checker/check-spec.ts `present` does; imported from there
 * the test would depend on every phase of the pipeline).
 */
function present(src: SpecSource, list: readonly SpecDiagnostic[]): Diagnostic[] {
  const at = (r: { start: number; end: number }) => {
    const l = src.lines.location(r.start, r.end);
    return { line: l.line, column: l.column, end_line: l.endLine, end_column: l.endColumn };
  };
  const out: Diagnostic[] = list.map((d) => ({
    success: false,
    error_type: d.errorType,
    path: d.path,
    message: d.message,
    ...(d.suggestion === undefined ? {} : { suggestion: d.suggestion }),
    code: d.code,
    severity: d.severity,
    ...at(d.range),
    ...(d.fix === undefined
      ? {}
      : {
          fix: {
            description: d.fix.description,
            edits: d.fix.edits.map((e) => ({ ...at(e.range), new_text: e.newText })),
          },
        }),
  }));
  return out.sort((a, b) => a.line - b.line || a.column - b.column || (a.code < b.code ? -1 : 1));
}

function run(text: string, diagnostics: readonly SpecDiagnostic[], known = KNOWN): Diagnostic[] {
  const src = new SpecSource(text);
  return present(src, applySuppressions(src, diagnostics, known));
}

/** code, line, column, end line, end column: enough to see what was kept and where. */
function brief(list: readonly Diagnostic[]): string[] {
  return list.map((d) => `${d.code} ${d.line}:${d.column}-${d.end_line}:${d.end_column}`);
}

describe("suppressing", () => {
  it("removes a diagnostic that starts on the line of a trailing suppression", () => {
    const text = "depends_on: [gone] # stratum-ignore[SPEC-DEPENDS-ON-UNKNOWN]: removed next release\n";
    expect(run(text, [diag(text, "gone", "SPEC-DEPENDS-ON-UNKNOWN")])).toEqual([]);
  });

  it("removes a diagnostic on the line directly below an own-line suppression", () => {
    const text = "steps:\n  # stratum-ignore[SPEC-STEP-UNREACHABLE]: kept for later\n  - id: old\n";
    expect(run(text, [diag(text, "old", "SPEC-STEP-UNREACHABLE")])).toEqual([]);
  });

  it("keeps diagnostics of other codes on the suppressed line", () => {
    const text = "x: [gone, 'a' + 1] # stratum-ignore[SPEC-DEPENDS-ON-UNKNOWN]: reason\n";
    const kept = run(text, [
      diag(text, "gone", "SPEC-DEPENDS-ON-UNKNOWN"),
      diag(text, "'a' + 1", "EXPR-TYPE"),
    ]);
    expect(brief(kept)).toEqual(["EXPR-TYPE 1:11-1:18"]);
  });

  it("matches the start line of a multi-line diagnostic only", () => {
    const text = "a: >\n  x # stratum-ignore[EXPR-TYPE]: r\n  y\nb: 1 # stratum-ignore[EXPR-TYPE]: r\n";
    // The first `# ...` is block-scalar content, not a comment; the diagnostic starts on line 1.
    const d: SpecDiagnostic = { ...diag(text, ">", "EXPR-TYPE"), range: { start: 3, end: 20 } };
    expect(brief(run(text, [d]))).toEqual(["EXPR-TYPE 1:4-2:16", "SUPPRESS-UNUSED 4:23-4:32"]);
  });

  it("stacks own-line suppressions and skips comment lines between a suppression and its line", () => {
    const text = [
      "steps:",
      "  # stratum-ignore[SPEC-STEP-UNREACHABLE]: reached by hand",
      "  # stratum-ignore[SPEC-DEPENDS-ON-UNKNOWN]: added by the generator",
      "  # (an explanation)",
      "  - {id: old, depends_on: [gone]}",
      "",
    ].join("\n");
    const kept = run(text, [
      diag(text, "old", "SPEC-STEP-UNREACHABLE"),
      diag(text, "gone", "SPEC-DEPENDS-ON-UNKNOWN"),
    ]);
    expect(kept).toEqual([]);
  });

  it("does not reach over a blank line: the diagnostic stays and the suppression is unused", () => {
    const text = "# stratum-ignore[SPEC-STEP-UNREACHABLE]: r\n\n- id: old\n";
    const kept = run(text, [diag(text, "old", "SPEC-STEP-UNREACHABLE")]);
    expect(kept.map((d) => [d.code, d.line, d.message])).toEqual([
      ["SUPPRESS-UNUSED", 1, "Unused suppression: no 'SPEC-STEP-UNREACHABLE' diagnostic starts on line 2"],
      ["SPEC-STEP-UNREACHABLE", 3, "SPEC-STEP-UNREACHABLE here"],
    ]);
  });

  it("one suppression removes every diagnostic of its code on its line", () => {
    const text = "depends_on: [a1, b2] # stratum-ignore[SPEC-DEPENDS-ON-UNKNOWN]: r\n";
    const list = [diag(text, "a1", "SPEC-DEPENDS-ON-UNKNOWN"), diag(text, "b2", "SPEC-DEPENDS-ON-UNKNOWN")];
    expect(run(text, list)).toEqual([]);
  });

  it("works with CRLF and lone CR line breaks", () => {
    for (const nl of ["\r\n", "\r"]) {
      const text = `a: 1${nl}# stratum-ignore[EXPR-TYPE]: r${nl}b: x${nl}c: y # stratum-ignore[EXPR-TYPE]: r${nl}`;
      expect(run(text, [diag(text, "x", "EXPR-TYPE"), diag(text, "y", "EXPR-TYPE")])).toEqual([]);
    }
  });

  it("returns the diagnostics unchanged when the text has no suppression", () => {
    const text = "a: 1 # just a comment\n";
    const d = diag(text, "1", "EXPR-TYPE");
    expect(applySuppressions(new SpecSource(text), [d], KNOWN)).toEqual([d]);
  });
});

describe("only real comments count", () => {
  const cases: readonly [string, string][] = [
    ["double-quoted", 'intent: "x # stratum-ignore[EXPR-TYPE]: r"\n'],
    ["single-quoted", "intent: 'it''s # stratum-ignore[EXPR-TYPE]: r'\n"],
    ["plain with # not after a space", "intent: a#stratum-ignore[EXPR-TYPE]:r\n"],
    ["literal block", "intent: |\n  # stratum-ignore[EXPR-TYPE]: r\n  x\n"],
    ["folded block", "intent: >-\n  y # stratum-ignore[EXPR-TYPE]: r\n"],
    ["multi-line double-quoted", 'intent: "a\n  # stratum-ignore[EXPR-TYPE]: r\n  b"\n'],
  ];
  for (const [name, text] of cases) {
    it(`ignores the marker inside a ${name} scalar`, () => {
      const d: SpecDiagnostic = {
        ...diag(text, "intent", "EXPR-TYPE"),
        range: { start: 0, end: text.length - 1 },
      };
      const kept = run(text, [d]);
      expect(kept.map((x) => x.code)).toEqual(["EXPR-TYPE"]);
    });
  }

  it("finds a comment inside a flow collection", () => {
    const text = "depends_on: [gone, # stratum-ignore[SPEC-DEPENDS-ON-UNKNOWN]: r\n  other]\n";
    expect(run(text, [diag(text, "gone", "SPEC-DEPENDS-ON-UNKNOWN")])).toEqual([]);
  });

  it("treats prose that merely starts with the word differently from a broken suppression", () => {
    const prose = "a: 1 # stratum-ignored values are listed below\n";
    expect(run(prose, [])).toEqual([]);
    const attempt = "a: 1 # stratum-ignore-next-line[EXPR-TYPE]: r\n";
    expect(run(attempt, []).map((d) => d.message)).toEqual([
      "Malformed suppression comment: expected '[CODE]' after 'stratum-ignore'",
    ]);
  });
});

describe("SUPPRESS-MALFORMED", () => {
  it("requires a reason: the comment suppresses nothing and is reported over its whole text", () => {
    const text = "depends_on: [gone] # stratum-ignore[SPEC-DEPENDS-ON-UNKNOWN]\n";
    const kept = run(text, [diag(text, "gone", "SPEC-DEPENDS-ON-UNKNOWN")]);
    expect(kept).toEqual([
      expect.objectContaining({ code: "SPEC-DEPENDS-ON-UNKNOWN", line: 1, column: 14 }),
      {
        success: false,
        error_type: "ir_semantic_error",
        path: "",
        message: "Malformed suppression comment: a reason is required: # stratum-ignore[CODE]: reason",
        code: "SUPPRESS-MALFORMED",
        severity: "error",
        line: 1,
        column: 20,
        end_line: 1,
        end_column: 61,
      },
    ]);
  });

  it("rejects an empty reason after the colon", () => {
    const text = "a: 1 # stratum-ignore[EXPR-TYPE]:   \n";
    expect(brief(run(text, [diag(text, "1", "EXPR-TYPE")]))).toEqual([
      "EXPR-TYPE 1:4-1:5",
      "SUPPRESS-MALFORMED 1:6-1:34",
    ]);
  });

  it("rejects an unknown code at the code, with did-you-mean, and suppresses none of the others", () => {
    const text = "x: [gone, 1] # stratum-ignore[SPEC-DEPENDS-ON-UNKNOWN, EXPR-TYPO]: r\n";
    const kept = run(text, [diag(text, "gone", "SPEC-DEPENDS-ON-UNKNOWN")]);
    expect(brief(kept)).toEqual(["SPEC-DEPENDS-ON-UNKNOWN 1:5-1:9", "SUPPRESS-MALFORMED 1:56-1:65"]);
    expect(kept[1]?.message).toBe("Malformed suppression comment: unknown code 'EXPR-TYPO'");
    expect(kept[1]?.suggestion).toBe("Did you mean 'EXPR-TYPE'?");
  });

  it("without a catalogue accepts any code of the right shape but still rejects other text", () => {
    const text = "a: 1 # stratum-ignore[not a code]: r\n";
    const src = new SpecSource(text);
    const kept = present(src, applySuppressions(src, []));
    expect(kept.map((d) => d.message)).toEqual(["Malformed suppression comment: unknown code 'not a code'"]);
    expect(kept[0]?.suggestion).toBeUndefined();
  });

  it("refuses YAML-family and suppression codes: YAML diagnostics stay", () => {
    const text =
      "a: 1\na: 2 # stratum-ignore[YAML-DUPLICATE-KEY]: r\nb: 1 # stratum-ignore[SUPPRESS-UNUSED]: r\n";
    const kept = run(text, [diag(text, "a", "YAML-DUPLICATE-KEY", 2)]);
    expect(kept.map((d) => [d.code, d.line, d.message])).toEqual([
      ["YAML-DUPLICATE-KEY", 2, "YAML-DUPLICATE-KEY here"],
      ["SUPPRESS-MALFORMED", 2, "Malformed suppression comment: 'YAML-DUPLICATE-KEY' cannot be suppressed"],
      ["SUPPRESS-MALFORMED", 3, "Malformed suppression comment: 'SUPPRESS-UNUSED' cannot be suppressed"],
    ]);
  });

  it("reports missing brackets, a missing ']' and an empty code", () => {
    const text = [
      "a: 1 # stratum-ignore: no codes",
      "b: 1 # stratum-ignore[EXPR-TYPE: r",
      "c: 1 # stratum-ignore[EXPR-TYPE, ]: r",
      "d: 1 # stratum-ignore[]: r",
      "",
    ].join("\n");
    expect(run(text, []).map((d) => `${d.line}:${d.column}-${d.end_column} ${d.message}`)).toEqual([
      "1:6-32 Malformed suppression comment: expected '[CODE]' after 'stratum-ignore'",
      "2:6-35 Malformed suppression comment: missing ']' after the codes",
      "3:6-38 Malformed suppression comment: a code is missing between '[' and ']'",
      "4:6-27 Malformed suppression comment: a code is missing between '[' and ']'",
    ]);
  });

  it("accepts spacing variants: no space after #, spaces around brackets, codes and colon", () => {
    const text = "a: x #stratum-ignore [ EXPR-TYPE ,SPEC-DEPENDS-ON-UNKNOWN ] :  why\n";
    expect(run(text, [diag(text, "x", "EXPR-TYPE"), diag(text, "x", "SPEC-DEPENDS-ON-UNKNOWN")])).toEqual([]);
  });
});

describe("SUPPRESS-UNUSED", () => {
  it("is reported per unused code, at the code; no fix while another code of the comment is used", () => {
    const text = "a: x # stratum-ignore[EXPR-TYPE, SPEC-STEP-UNREACHABLE]: r\n";
    const kept = run(text, [diag(text, "x", "EXPR-TYPE")]);
    expect(kept).toEqual([
      {
        success: false,
        error_type: "ir_semantic_error",
        path: "",
        message: "Unused suppression: no 'SPEC-STEP-UNREACHABLE' diagnostic starts on line 1",
        code: "SUPPRESS-UNUSED",
        severity: "warning",
        line: 1,
        column: 34,
        end_line: 1,
        end_column: 55,
      },
    ]);
  });

  it("offers to delete a wholly unused trailing comment with the blanks before it", () => {
    const text = "a: 1   # stratum-ignore[EXPR-TYPE]: r\nb: 2\n";
    const [d] = run(text, []);
    expect(d?.fix).toEqual({
      description: "Remove the unused suppression comment",
      edits: [{ line: 1, column: 5, end_line: 1, end_column: 38, new_text: "" }],
    });
  });

  it("offers to delete a wholly unused own-line comment with its line break", () => {
    const text = "a: 1\n  # stratum-ignore[EXPR-TYPE]: r\r\nb: 2\n";
    const [d] = run(text, []);
    expect(d?.message).toBe("Unused suppression: no 'EXPR-TYPE' diagnostic starts on line 3");
    expect(d?.fix?.edits).toEqual([{ line: 2, column: 1, end_line: 3, end_column: 1, new_text: "" }]);
  });

  it("is not reported when the checker stopped early (YAML error, root, version)", () => {
    const text = "version: '9'\na: 1 # stratum-ignore[EXPR-TYPE]: r\n";
    const stops: SpecDiagnostic[] = [
      { ...diag(text, "a", "YAML-SYNTAX"), path: "" },
      { ...diag(text, "'9'", "SCHEMA-VERSION-UNKNOWN"), path: "version" },
      { ...diag(text, "version", "SCHEMA-ROOT-NOT-MAPPING"), path: "root" },
    ];
    for (const stop of stops) expect(run(text, [stop]).map((d) => d.code)).toEqual([stop.code]);
    // A warning-severity YAML diagnostic does not stop the checker.
    const dup = { ...diag(text, "a", "YAML-DUPLICATE-KEY"), path: "" };
    expect(run(text, [dup]).map((d) => d.code)).toEqual(["YAML-DUPLICATE-KEY", "SUPPRESS-UNUSED"]);
  });
});

describe("with the real catalogue", () => {
  it("holds both suppression rules, with the family and error type the task fixes", () => {
    for (const code of ["SUPPRESS-MALFORMED", "SUPPRESS-UNUSED"]) {
      expect(CATALOGUE.get(code)).toMatchObject({ family: "suppression", errorType: "ir_semantic_error" });
    }
  });

  it("rejects a misspelt code with the closest catalogue code as suggestion", () => {
    const text = "a: 1 # stratum-ignore[SPEC-STEP-UNREACHABEL]: r\n";
    const kept = run(text, [], CATALOGUE);
    expect(kept.map((d) => [d.message, d.suggestion])).toEqual([
      [
        "Malformed suppression comment: unknown code 'SPEC-STEP-UNREACHABEL'",
        "Did you mean 'SPEC-STEP-UNREACHABLE'?",
      ],
    ]);
  });
});

describe("properties", () => {
  const fragments = fc.constantFrom(
    "# stratum-ignore[EXPR-TYPE]: r",
    "# stratum-ignore[",
    "#stratum-ignore",
    "a: 1",
    '"q # stratum-ignore[EXPR-TYPE]: r"',
    "- x",
    "|",
    "  ",
    "\n",
    "\r\n",
    "\r",
    "'",
    '"',
    "[",
    "]",
    ",",
    ":",
    "\t",
    "😀",
  );
  const texts = fc.array(fragments, { maxLength: 30 }).map((parts) => parts.join(""));

  it("never throws; every added diagnostic lies inside the text; no diagnostic is invented", () => {
    fc.assert(
      fc.property(texts, fc.nat(), (text, seed) => {
        const src = new SpecSource(text);
        const start = text.length === 0 ? 0 : seed % text.length;
        const input: SpecDiagnostic[] = [
          {
            code: "EXPR-TYPE",
            severity: "error",
            errorType: "ir_semantic_error",
            message: "m",
            path: "p",
            range: { start, end: text.length },
          },
        ];
        const out = applySuppressions(src, input, KNOWN);
        for (const d of out) {
          expect(d.range.start).toBeGreaterThanOrEqual(0);
          expect(d.range.end).toBeLessThanOrEqual(text.length);
          expect(d.range.start).toBeLessThanOrEqual(d.range.end);
          expect(d === input[0] || d.code.startsWith("SUPPRESS-")).toBe(true);
        }
        // Deterministic.
        expect(applySuppressions(src, input, KNOWN)).toEqual(out);
      }),
      { numRuns: 500 },
    );
  });
});
