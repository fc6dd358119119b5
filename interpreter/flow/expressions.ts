// Evaluating the spec's expressions against a flow (docs/reference/language.md §10.5, docs/reference/language.md §10.6, docs/reference/language.md §10.14): compiled
// once per AST, `$` paths read from the flow's inputs and stored outputs, file builtins rooted at
// the flow's cwd, a fresh budget per evaluation.

import type { ExpressionIR } from "../../checker/ir/types";
import type { Expr } from "../../grammar/ast";
import { dictGetStr } from "../../stdlib/values/dict";
import { PyError } from "../../stdlib/values/errors";
import { makeNamespace } from "../../stdlib/values/namespace";
import { PyDict, type PyValue } from "../../stdlib/values/value";
import { compileExpression } from "../eval/compile";
import type { CompiledExpression, PathSource } from "../eval/context";
import { evaluate } from "../eval/evaluate";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";
import type { RaisedError } from "./violations";

export type Evaluation =
  | { readonly ok: true; readonly value: PyValue }
  | { readonly ok: false; readonly message: string; readonly error: RaisedError };

// The IR is immutable, so an AST compiles to the same closures for every flow of every spec.
const compiled = new WeakMap<Expr, CompiledExpression>();

function compiledOf(expr: ExpressionIR): CompiledExpression {
  let code = compiled.get(expr.ast);
  if (code === undefined) {
    code = compileExpression(expr.ast);
    compiled.set(expr.ast, code);
  }
  return code;
}

/** `$.input.<name>` / `$.steps.<id>.output` read from the flow state at evaluation time (docs/reference/language.md §10.5). */
function pathSourceOf(run: FlowRun): PathSource {
  return {
    input: (name) => dictGetStr(run.state.inputs, name),
    stepOutput: (id) => run.state.step_outputs.get(id),
  };
}

/** Evaluates `expr` with the given position names; a run-time error gives its Python message. */
export function evaluateIn(
  tx: Tx,
  run: FlowRun,
  expr: ExpressionIR,
  names: ReadonlyMap<string, PyValue>,
): Evaluation {
  try {
    const value = evaluate(compiledOf(expr), names, {
      paths: pathSourceOf(run),
      files: tx.files(run.state.cwd),
    });
    return { ok: true, value };
  } catch (e) {
    if (e instanceof PyError) {
      const error: RaisedError =
        e.violations === null
          ? { type: e.kind, message: e.message, answer: e.answer }
          : { type: e.kind, message: e.message, answer: e.answer, violations: e.violations };
      return { ok: false, message: e.message, error };
    }
    throw e;
  }
}

/** The value bound to `result` / `item`: a namespace for an object, else the raw value (docs/reference/language.md §10.6). */
export function bindable(value: PyValue): PyValue {
  return value instanceof PyDict ? makeNamespace(value) : value;
}
