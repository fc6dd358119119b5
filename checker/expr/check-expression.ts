// The expression checker entry point (docs/reference/language.md §9.5.5, docs/reference/language.md §10.12): parses the text, turns syntax
// diagnostics into EXPR-SYNTAX / EXPR-TOO-LONG / EXPR-TOO-DEEP, then type-checks the tree.
import type { SyntaxDiagnostic } from "../../grammar/diagnostics";
import { type ParseResult, parseExpression } from "../../grammar/parse";
import { typeToString } from "../../stdlib/types/print";
import { ANY, type Type } from "../../stdlib/types/type";
import { members } from "../../stdlib/types/union";
import { MESSAGES } from "../messages";
import { Checker } from "./checker";
import type { ExprCheckResult, ExprDiagnostic, ExprEnvironment } from "./types";

export type {
  ExprCheckResult,
  ExprDiagnostic,
  ExprEnvironment,
  ExpressionKind,
} from "./types";

function clampRange(text: string, start: number, end: number): { start: number; end: number } {
  const fix = (n: number) =>
    Number.isFinite(n) ? Math.min(Math.max(0, Math.trunc(n)), text.length) : text.length;
  const s = fix(start);
  return { start: s, end: Math.max(s, fix(end)) };
}

function syntaxDiagnostic(text: string, env: ExprEnvironment, d: SyntaxDiagnostic): ExprDiagnostic {
  const range = clampRange(text, d.start, d.end);
  switch (d.code) {
    case "EXPR-SYNTAX":
      return {
        code: d.code,
        severity: "error",
        message: MESSAGES[d.code].message(env.kind, text, d.detail),
        ...range,
      };
    case "EXPR-TOO-LONG":
      return {
        code: d.code,
        severity: "error",
        message: MESSAGES[d.code].message(env.kind, d.length),
        ...range,
      };
    case "EXPR-TOO-DEEP":
      return { code: d.code, severity: "error", message: MESSAGES[d.code].message(env.kind), ...range };
  }
}

/** `accumulate` must produce a list: some member of its type must be a list (or `any`). */
function isListLike(t: Type): boolean {
  return t.k === "any" || members(t).some((m) => m.k === "list");
}

/** `score_expr` must give a number: some member of its type must be an int or a float (or `any`). */
function isNumberLike(t: Type): boolean {
  return t.k === "any" || members(t).some((m) => m.k === "int" || m.k === "float");
}

/** `parse`: parseExpression or an equivalent cache of it (parse results are immutable). */
export function checkExpression(
  text: string,
  env: ExprEnvironment,
  parse: (text: string) => ParseResult = parseExpression,
): ExprCheckResult {
  const parsed = parse(text);
  if (parsed.diagnostics.length > 0 || parsed.expr === null) {
    // An expression with a syntax error gets no further expression diagnostics (docs/reference/language.md §9.3).
    const diagnostics = parsed.diagnostics.map((d) => syntaxDiagnostic(text, env, d));
    return { expr: parsed.expr, type: ANY, diagnostics, types: new Map() };
  }
  const expr = parsed.expr;
  const checker = new Checker(text, env);
  const type = checker.visit(expr, null);
  if (env.kind === "accumulate" && !isListLike(type)) {
    const message = MESSAGES["EXPR-ACCUMULATE-NOT-LIST"].message(text, typeToString(type));
    checker.report("EXPR-ACCUMULATE-NOT-LIST", message, expr);
  }
  if (env.kind === "score_expr" && !isNumberLike(type)) {
    const message = MESSAGES["EXPR-SCORE-NOT-NUMBER"].message(text, typeToString(type));
    checker.report("EXPR-SCORE-NOT-NUMBER", message, expr);
  }
  return { expr, type, diagnostics: checker.diagnostics, types: checker.types };
}
