// One-shot evaluation with a fresh budget (docs/reference/language.md §10.15).
import type { EvalEnv } from "../../stdlib/builtins/env";
import type { FileAccess } from "../../stdlib/files";
import { Budget, DEFAULT_BUDGET } from "../../stdlib/values/budget";
import type { PyValue } from "../../stdlib/values/value";
import type { CompiledExpression, EvalContext, PathSource } from "./context";
import { loadYamlData } from "./yaml-data";

export interface EvaluateOptions {
  readonly paths?: PathSource;
  /** null or absent: file builtins see no files. */
  readonly files?: FileAccess | null;
  /** Step limit; default 1 000 000. */
  readonly budget?: number;
}

export function evaluate(
  compiled: CompiledExpression,
  names: ReadonlyMap<string, PyValue>,
  options?: EvaluateOptions,
): PyValue {
  const env: EvalEnv = {
    budget: new Budget(options?.budget ?? DEFAULT_BUDGET),
    files: options?.files ?? null,
    yaml: loadYamlData,
  };
  const ctx: EvalContext =
    options?.paths === undefined ? { names, env } : { names, paths: options.paths, env };
  return compiled(ctx);
}
