import { describe, expect, it } from "vitest";
import { formatDiagnostic, formatDiagnostics, type LocatedDiagnostic } from "../../cli/format/code-frame";

function diag(overrides: Partial<LocatedDiagnostic>): LocatedDiagnostic {
  return {
    severity: "error",
    code: "EXPR-TYPE",
    message: "boom",
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 2,
    ...overrides,
  };
}

describe("code frame", () => {
  it("underlines the range with ^ then ~", () => {
    const text = "x + 'a'";
    const d = diag({ column: 1, endColumn: 8, message: "unsupported operand" });
    expect(formatDiagnostic("<expr>", text, d)).toBe(
      ["<expr>:1:1: error: unsupported operand [EXPR-TYPE]", " 1 | x + 'a'", "   | ^~~~~~~"].join("\n"),
    );
  });

  it("puts the caret under code-point columns after astral characters", () => {
    const text = "'😀' + y";
    const d = diag({
      column: 7,
      endColumn: 8,
      code: "EXPR-UNKNOWN-NAME",
      message: "name 'y' is not defined",
    });
    expect(formatDiagnostic("<expr>", text, d).split("\n")).toEqual([
      "<expr>:1:7: error: name 'y' is not defined [EXPR-UNKNOWN-NAME]",
      " 1 | '😀' + y",
      "   |       ^",
    ]);
  });

  it("shows a single caret for an empty range at the end", () => {
    const d = diag({ column: 4, endColumn: 4, code: "EXPR-SYNTAX", message: "unexpected end of expression" });
    expect(formatDiagnostic("<expr>", "1 +", d).split("\n")[2]).toBe("   |    ^");
  });

  it("shows the start line of a multi-line range, underlined to its end, with the line number", () => {
    const text = "a and\nb or\n  (c +\n d)";
    const d = diag({ line: 3, column: 3, endLine: 4, endColumn: 4, severity: "warning", code: "W" });
    expect(formatDiagnostic("spec.yaml", text, d).split("\n")).toEqual([
      "spec.yaml:3:3: warning: boom [W]",
      " 3 |   (c +",
      "   |   ^~~~",
    ]);
  });

  it("keeps tabs in the indentation so the caret lines up", () => {
    const d = diag({ column: 3, endColumn: 4 });
    expect(formatDiagnostic("<expr>", "\t\tz", d).split("\n")[2]).toBe("   | \t\t^");
  });

  it("adds a help line for a suggestion, and separates several diagnostics", () => {
    const a = diag({
      code: "EXPR-UNKNOWN-NAME",
      message: "name 'reslt' is not defined",
      endColumn: 6,
      suggestion: "Did you mean 'result'?",
    });
    const b = diag({ severity: "warning", code: "EXPR-IS-LITERAL", message: "x", column: 7, endColumn: 9 });
    expect(formatDiagnostics("<expr>", "reslt is 1", [a, b])).toBe(
      [
        "<expr>:1:1: error: name 'reslt' is not defined [EXPR-UNKNOWN-NAME]",
        " 1 | reslt is 1",
        "   | ^~~~~",
        "  help: Did you mean 'result'?",
        "<expr>:1:7: warning: x [EXPR-IS-LITERAL]",
        " 1 | reslt is 1",
        "   |       ^~",
        "",
      ].join("\n"),
    );
  });

  it("widens the gutter for long line numbers", () => {
    const text = `${"\n".repeat(11)}bad`;
    const d = diag({ line: 12, column: 1, endColumn: 4 });
    expect(formatDiagnostic("f", text, d).split("\n").slice(1)).toEqual([" 12 | bad", "    | ^~~"]);
  });

  it("shows control characters as spaces so columns stay aligned", () => {
    const d = diag({ column: 3, endColumn: 4 });
    expect(formatDiagnostic("<expr>", "a\u0007b", d).split("\n").slice(1)).toEqual([" 1 | a b", "   |   ^"]);
  });
});
