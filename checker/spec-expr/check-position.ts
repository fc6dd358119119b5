// Checks one expression scalar: the expression checker's diagnostics mapped into the file, then
// the `$` references of its AST (unknown step, undeclared input, unknown field, may not have run).
import type { Expr, Path } from "../../grammar/ast";
import type { ParseResult } from "../../grammar/parse";
import { walk } from "../../grammar/walk";
import { checkExpression } from "../expr/check-expression";
import type { ExprDiagnostic, ExprEnvironment, ExpressionKind } from "../expr/types";
import type { FlowDecl } from "../model/types";
import type { Reporter } from "../report";
import type { SpecSource } from "../source";
import type { ScalarNode } from "../yaml/nodes";
import { exprRule } from "./expr-rules";
import { mapFix } from "./fixes";
import { type OutputTypeOf, resolveRef } from "./path-types";
import { type RefSite, reportMayNotHaveRun, reportRefProblem } from "./ref-report";
import type { CheckedExpression } from "./types";

const SYNTAX_CODES: ReadonlySet<string> = new Set(["EXPR-SYNTAX", "EXPR-TOO-LONG", "EXPR-TOO-DEEP"]);

/** Where `$` references are checked: the flow they read and the step that evaluates them. */
export interface RefScope {
  readonly flow: FlowDecl;
  /** The id of the evaluating step. */
  readonly stepId: string;
  readonly outputType: OutputTypeOf;
  /** True when the step with this id is a transitive dependency of the evaluating step. */
  readonly dependsOn: (id: string) => boolean;
}

export interface Position {
  readonly src: SpecSource;
  readonly reporter: Reporter;
  readonly kind: ExpressionKind;
  /** A string scalar. */
  readonly node: ScalarNode;
  readonly path: string;
  readonly env: ExprEnvironment;
  /** Null: no `$`-reference checks (the ensure of an unused function). */
  readonly refs: RefScope | null;
  /** parseExpression or an equivalent cache of it. */
  readonly parse?: (text: string) => ParseResult;
}

export function checkPosition(p: Position): CheckedExpression {
  const text = typeof p.node.value === "string" ? p.node.value : "";
  const r = checkExpression(text, p.env, p.parse);
  let ok = true;
  for (const d of r.diagnostics) {
    report(p, d);
    if (d.severity === "error") ok = false;
  }
  const parsed = !r.diagnostics.some((d) => SYNTAX_CODES.has(d.code)) && r.expr !== null;
  if (parsed && p.refs !== null && r.expr !== null && !checkReferences(p, p.refs, r.expr)) ok = false;
  return {
    kind: p.kind,
    text,
    node: p.node,
    ast: parsed ? r.expr : null,
    type: r.type,
    types: r.types,
    ok,
  };
}

function report(p: Position, d: ExprDiagnostic): void {
  const fix = mapFix(p.src, p.node, d.fix);
  p.reporter.report(exprRule(d.code), {
    message: d.message,
    path: p.path,
    range: p.node.mapRange(d.start, d.end),
    ...(d.suggestion !== undefined ? { suggestion: d.suggestion } : {}),
    ...(fix !== undefined ? { fix } : {}),
  });
}

/** Reports the problems of every well-formed `$` path; false when an error was reported. */
function checkReferences(p: Position, scope: RefScope, expr: Expr): boolean {
  const paths: Path[] = [];
  walk(expr, {
    enter(node) {
      if (node.kind === "Path" && node.ref !== null) paths.push(node);
      return true;
    },
  });
  let ok = true;
  for (const path of paths) {
    if (path.ref === null) continue;
    const site: RefSite = {
      src: p.src,
      reporter: p.reporter,
      node: p.node,
      text: path.text,
      path: p.path,
      flow: scope.flow,
      range: (start, end) => p.node.mapRange(start, end),
    };
    const resolved = resolveRef(path.ref, scope.flow, scope.outputType);
    if (resolved.problem !== null) {
      reportRefProblem(site, resolved.problem);
      ok = false;
    }
    const target = resolved.target;
    if (target !== null && target.id !== null) {
      reportMayNotHaveRun(site, path, scope.stepId, p.kind, target, target.id, scope.dependsOn);
    }
  }
  return ok;
}
