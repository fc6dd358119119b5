// What a builtin or method implementation may use while it runs.
import type { FileAccess } from "../files";
import type { Budget } from "../values/budget";
import type { PyValue } from "../values/value";

/** A YAML text loaded as PyYAML's safe_load would (null for an empty document), or why not. */
export type YamlData =
  | { readonly ok: true; readonly value: PyValue }
  | { readonly ok: false; readonly message: string };

export interface EvalEnv {
  readonly budget: Budget;
  /** null: no working root; file builtins then see no files (file_exists → False). */
  readonly files: FileAccess | null;
  /**
   * The YAML loader of vocabulary_compliance (the core's YAML front end lives above the stdlib, so
   * the evaluator injects it); absent, a vocabulary file cannot be loaded.
   */
  readonly yaml?: (text: string) => YamlData;
}
