// What a compiled expression sees when it runs, and the internal shape of compiled code.
import type { Expr } from "../../grammar/ast";
import type { EvalEnv } from "../../stdlib/builtins/env";
import type { PyValue } from "../../stdlib/values/value";
import type { CompileScope } from "./scope";

/** Where `$.input.<name>` and `$.steps.<id>.output` read from (docs/reference/language.md §10.5). */
export interface PathSource {
  input(name: string): PyValue | undefined;
  stepOutput(id: string): PyValue | undefined;
  /**
   * The property state (docs/guides/testing-a-spec.md "Properties"): when set, every `$` path is
   * read from it segment by segment (`$.flow.status` is `state.flow.status`), and input/stepOutput
   * are not asked.
   */
  readonly state?: PyValue;
}

export interface EvalContext {
  /** The position names (`result`, `item`, `accumulator`, …), docs/reference/language.md §10.6. */
  readonly names: ReadonlyMap<string, PyValue>;
  readonly paths?: PathSource;
  readonly env: EvalEnv;
}

/** A compiled expression: throws PyError only. */
export type CompiledExpression = (ctx: EvalContext) => PyValue;

/**
 * The variables of one running comprehension. Slots are resolved at compile time (lexical
 * scoping); `undefined` marks a variable that has not been assigned yet.
 */
export interface Frame {
  readonly slots: (PyValue | undefined)[];
  readonly parent: Frame | null;
}

/** Internal compiled node: the frame is null outside comprehensions. */
export type Code = (ctx: EvalContext, frame: Frame | null) => PyValue;

/** Compiles a sub-expression in the given comprehension scope (null: outside comprehensions). */
export type CompileFn = (e: Expr, scope: CompileScope | null) => Code;
