// What a builtin or method implementation may use while it runs.
import type { FileAccess } from "../files";
import type { Budget } from "../values/budget";

export interface EvalEnv {
  readonly budget: Budget;
  /** null: no working root; file builtins then see no files (file_exists → False). */
  readonly files: FileAccess | null;
}
