// The transaction a tool call runs in (docs/runtime.md §15). The state machine is pure: it reads and
// changes flows only through a Tx, whose flows are private working copies. The engine commits a
// Tx (persist every touched flow, children before parents, apply deletions, then replace the
// in-memory copies) only when the call ends with a committing response; otherwise it drops it and
// nothing has changed, in memory or on disk.
import type { Diagnostic } from "../../checker/diagnostic";
import type { CheckedSpec } from "../../checker/ir/types";
import type { FileAccess } from "../../stdlib/files";
import type { Clock, IdSource } from "./ports";
import type { FlowRun } from "./run";

/** A spec text as the checker left it: its errors and, when there are none, the checked IR. */
export interface CheckedText {
  /** Error-severity diagnostics, sorted (docs/language.md §9.1). */
  readonly errors: readonly Diagnostic[];
  /** The checked IR; null when the text has errors. */
  readonly ir: CheckedSpec | null;
}

export interface Tx {
  readonly clock: Clock;
  readonly ids: IdSource;
  /** The server's working directory (absolute): `cwd` of new root flows. */
  readonly serverCwd: string;
  /** The file access of a flow's file builtins (docs/language.md §10.9): root = the flow's `cwd`. */
  files(cwd: string): FileAccess | null;
  /**
   * A flow the engine loaded for this call (the flow named by the call and the chain of its active
   * children), read-only; null when it is unknown or could not be restored.
   */
  read(flowId: string): FlowRun | null;
  /** The working copy of a loaded flow, marked as touched: it is persisted on commit. */
  edit(flowId: string): FlowRun | null;
  /** Registers a flow created in this call (a child flow); persisted on commit before its parent. */
  create(run: FlowRun): void;
  /**
   * Detaches a child (docs/runtime.md §8.3): removes it from the registry on commit and deletes its file when it
   * is still in progress (persisted status running or awaiting_gate).
   */
  detach(flowId: string): void;
  /** Adds a warning to the final response of the call (`warnings`, its last key; docs/runtime.md §3.1, docs/runtime.md §16.4). */
  warn(message: string): void;
  /** Checked IR of a spec text (cached); null when the text has errors. */
  compile(specText: string): CheckedSpec | null;
  /** The error diagnostics and the checked IR of a spec text (cached). */
  check(specText: string): CheckedText;
}
