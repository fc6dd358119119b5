// Evaluating the spec's expressions against a flow (language.md §10.5, §10.6, §10.14): compiled
// once per AST, `$` paths read from the flow's inputs and stored outputs, file builtins rooted at
// the flow's cwd, a fresh budget per evaluation.
import type { ExpressionIR } from "../../checker/ir/types";
import type { PyValue } from "../../stdlib/values/value";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

export type Evaluation =
  | { readonly ok: true; readonly value: PyValue }
  | { readonly ok: false; readonly message: string };

/** Evaluates `expr` with the given position names; a run-time error gives its Python message. */
export function evaluateIn(
  tx: Tx,
  run: FlowRun,
  expr: ExpressionIR,
  names: ReadonlyMap<string, PyValue>,
): Evaluation {
  void tx;
  void run;
  void expr;
  void names;
  throw new Error("evaluateIn: not implemented yet (A1)");
}

/** The value bound to `result` / `item`: a namespace for an object, else the raw value (§10.6). */
export function bindable(value: PyValue): PyValue {
  void value;
  throw new Error("bindable: not implemented yet (A1)");
}
