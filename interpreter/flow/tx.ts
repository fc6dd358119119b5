// The transaction a tool call runs in (docs/reference/runtime.md §15). The state machine is pure: it reads and
// changes flows only through a Tx, whose flows are private working copies. The engine commits a
// Tx (persist every touched flow, children before parents, apply deletions, then replace the
// in-memory copies) only when the call ends with a committing response; otherwise it drops it and
// nothing has changed, in memory or on disk.
import type { Diagnostic } from "../../checker/diagnostic";
import type { CheckedSpec } from "../../checker/ir/types";
import type { FileAccess } from "../../stdlib/files";
import type { PyValue } from "../../stdlib/values/value";
import type { Clock, IdSource } from "./ports";
import type { PricingTable } from "./pricing";
import type { ResultCacheStore } from "./result-cache";
import type { FlowRun } from "./run";
import type { MemberViolation, RaisedError, Violation } from "./violations";

/** A route a flow took (docs/reference/runtime.md §5): the field of `from` whose target became current. */
export type RouteField = "next" | "on_fail" | "on_approve" | "on_revise" | "on_kill";

/**
 * A typed fact of the call the flow tools hand to the engine's events (engine/observe.ts) beside
 * the response: what the checks decided and why, what raised, where a flow was routed. Nothing in
 * the flow logic reads them back; they live as long as the call.
 */
export type TxFact =
  /** The reasons a step's result was rejected (the response's `violations`, typed). */
  | {
      readonly type: "verdict";
      readonly flowId: string;
      readonly stepId: string;
      readonly reasons: readonly Violation[];
    }
  /** The members of a quorum, race or debate round judged in this call whose report did not count. */
  | {
      readonly type: "members";
      readonly flowId: string;
      readonly stepId: string;
      readonly members: readonly MemberViolation[];
    }
  /**
   * An expression outside ensure that failed: skip_if (the step was not skipped), an iteration's
   * exit_criterion or accumulate. `error` is null when it did not raise but gave an unusable value.
   */
  | {
      readonly type: "expression_failed";
      readonly flowId: string;
      readonly stepId: string;
      readonly field: "skip_if" | "exit_criterion" | "accumulate" | "score_expr";
      readonly error: RaisedError | null;
      readonly text: string;
    }
  /**
   * The output a step stored with its record: an accepted result (with an accumulator's fields), a
   * result served from the cache, or an exhausted attempt's result that `on_fail` routes on with.
   */
  | {
      readonly type: "output";
      readonly flowId: string;
      readonly stepId: string;
      readonly output: PyValue;
    }
  | {
      readonly type: "routed";
      readonly flowId: string;
      readonly from: string;
      readonly to: string;
      readonly route: RouteField;
    };

/** A spec text as the checker left it: its errors and, when there are none, the checked IR. */
export interface CheckedText {
  /** Error-severity diagnostics, sorted (docs/reference/language.md §9.1). */
  readonly errors: readonly Diagnostic[];
  /** The checked IR; null when the text has errors. */
  readonly ir: CheckedSpec | null;
}

/** What run budgets need from the host (EngineOptions.pricing and logError). */
export interface BudgetEnvironment {
  readonly pricing: PricingTable;
  /** A model that usage was reported for on a flow with a `usd` cap and that the table lacks. */
  unpriced(model: string): void;
}

export interface Tx {
  readonly clock: Clock;
  readonly ids: IdSource;
  /** The server's working directory (absolute): `cwd` of new root flows. */
  readonly serverCwd: string;
  /** The file access of a flow's file builtins (docs/reference/language.md §10.9): root = the flow's `cwd`. */
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
   * Detaches a child (docs/reference/runtime.md §8.3): removes it from the registry on commit and deletes its file when it
   * is still in progress (persisted status running or awaiting_gate).
   */
  detach(flowId: string): void;
  /** Adds a warning to the final response of the call (`warnings`, its last key; docs/reference/runtime.md §3.1, docs/reference/runtime.md §16.4). */
  warn(message: string): void;
  /** Hands a typed fact of the call to the engine's events (TxFact); it changes nothing. */
  note(fact: TxFact): void;
  /**
   * The pricing of reported token usage (docs/reference/runtime.md §11.4) and where a model it
   * lacks is named; default the built-in table and no warning.
   */
  readonly budget?: BudgetEnvironment;
  /**
   * The result cache (docs/reference/runtime.md §25.4), or null when there is none. What a call
   * stores reaches the store only when the call commits.
   */
  readonly results: ResultCacheStore | null;
  /** Checked IR of a spec text (cached); null when the text has errors. */
  compile(specText: string): CheckedSpec | null;
  /** The error diagnostics and the checked IR of a spec text (cached). */
  check(specText: string): CheckedText;
}
