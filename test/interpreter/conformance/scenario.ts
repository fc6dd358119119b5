// The runtime scenarios of test/conformance/recorded/scenarios/*.json (test/conformance/recorded/README.md §2): their
// shape, and loading them. User data (`inputs`, `result`) is decoded a second time with the
// kind-preserving parser, so `1.0` in a result stays a float as it would over MCP.
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { dictGetStr } from "../../../stdlib/values/dict";
import { parseJson } from "../../../stdlib/values/json";
import { PyDict, type PyValue } from "../../../stdlib/values/value";
import { CONFORMANCE_DIR } from "../../support/shared";

const SCENARIOS_DIR = resolve(CONFORMANCE_DIR, "scenarios");

type ActionOp =
  | "step_done"
  | "gate_resolve"
  | "skip"
  | "check_timeouts"
  | "audit"
  | "resume"
  | "commit"
  | "revert"
  | "iteration_start"
  | "iteration_report"
  | "iteration_abort"
  | "validate"
  | "list_workflows"
  | "compile_speckit"
  | "restart"
  | "age_gate"
  | "parallel_done";

const ACTION_OPS: readonly ActionOp[] = [
  "step_done",
  "gate_resolve",
  "skip",
  "check_timeouts",
  "audit",
  "resume",
  "commit",
  "revert",
  "iteration_start",
  "iteration_report",
  "iteration_abort",
  "validate",
  "list_workflows",
  "compile_speckit",
  "restart",
  "age_gate",
  "parallel_done",
];

export interface Action {
  readonly op: ActionOp;
  /** "root" (default), "child", "child:N", or a literal flow id. */
  readonly flow?: string;
  readonly step_id?: string;
  /** Kind-preserving user data (PyValue), absent when the action has no `result`. */
  readonly result?: PyValue;
  readonly outcome?: string;
  readonly rationale?: string;
  readonly resolved_by?: string;
  readonly reason?: string;
  readonly label?: string;
  readonly spec?: string;
  readonly dir?: string;
  readonly tasks_dir?: string;
  readonly flow_name?: string;
  readonly seconds?: number;
  /** `parallel_done`: kind-preserving (PyValue), like `result`. */
  readonly task_results?: PyValue;
  readonly merge_status?: string;
}

interface ExpectDivergence {
  readonly id: string;
  readonly ops: readonly number[];
  readonly note: string;
  /** Index (as a string) → keys our response must have with these values. */
  readonly expect?: Readonly<Record<string, unknown>>;
}

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly spec: string;
  readonly flow: string;
  /** Kind-preserving (PyValue). */
  readonly inputs: PyValue;
  readonly actions: readonly Action[];
  /** Element 0 is the plan response; element i belongs to actions[i - 1]. */
  readonly reference: readonly { readonly op: string; readonly response: unknown }[];
  readonly expect_divergences: readonly ExpectDivergence[];
  readonly fixtures: readonly string[];
}

/** The scenarios directory with symbolic links resolved (the `<CWD>` of test/conformance/recorded/README.md §2.2). */
export function scenariosCwd(): string {
  return realpathSync(SCENARIOS_DIR);
}

/**
 * Scenarios recorded from reference release 0.2.69 (test/conformance/recorded/README.md §2.4) describe
 * behaviour the product does not implement yet: they stay in the folder as the requirement and are
 * not replayed until the implementation lands.
 */
const PENDING_PREFIX = "v0269_";

export function scenarioFiles(): string[] {
  return readdirSync(SCENARIOS_DIR)
    .filter((f) => f.endsWith(".json") && !f.startsWith(PENDING_PREFIX))
    .sort();
}

/** The recorded 0.2.69 scenarios that are not replayed yet (see `PENDING_PREFIX`). */
export function pendingScenarioFiles(): string[] {
  return readdirSync(SCENARIOS_DIR)
    .filter((f) => f.endsWith(".json") && f.startsWith(PENDING_PREFIX))
    .sort();
}

function field(dict: PyValue, key: string): PyValue | undefined {
  return dict instanceof PyDict ? dictGetStr(dict, key) : undefined;
}

const HOOK_OPS: ReadonlySet<string> = new Set(["restart", "age_gate"]);

/**
 * Erratum of the shared data: a divergence index that names a `restart` / `age_gate` hook (whose
 * response is never compared) means the call right after it. audit_after_restart_of_finished_flow
 * lists `ops: [3]` (the restart) for the audit at index 4; retries_exhausted_error, which
 * describes the same D7 case, names the audit. A no-op once the data is corrected.
 */
function shiftOffHooks(d: ExpectDivergence, actions: readonly Action[]): ExpectDivergence {
  const isHook = (i: number) => i >= 1 && HOOK_OPS.has(actions[i - 1]?.op ?? "");
  if (!d.ops.some(isHook)) return d;
  const shift = (i: number) => {
    let j = i;
    while (isHook(j)) j++;
    return j;
  };
  const expect =
    d.expect && Object.fromEntries(Object.entries(d.expect).map(([k, v]) => [String(shift(Number(k))), v]));
  return { ...d, ops: d.ops.map(shift), ...(expect ? { expect } : {}) };
}

export function parseScenario(text: string): Scenario {
  const plain = JSON.parse(text) as Scenario & { actions: Action[]; inputs?: unknown };
  const typed = parseJson(text);
  const typedActions = field(typed, "actions");
  const actions = plain.actions.map((action, i): Action => {
    if (!ACTION_OPS.includes(action.op)) throw new Error(`${plain.name}: unknown op '${action.op}'`);
    const typedAction = Array.isArray(typedActions) ? (typedActions[i] ?? null) : null;
    const result = field(typedAction, "result");
    const task_results = field(typedAction, "task_results");
    return {
      ...action,
      ...(result === undefined ? {} : { result }),
      ...(task_results === undefined ? {} : { task_results }),
    };
  });
  if (plain.reference.length !== actions.length + 1) {
    throw new Error(
      `${plain.name}: ${plain.reference.length} reference entries for ${actions.length} actions`,
    );
  }
  return {
    ...plain,
    inputs: field(typed, "inputs") ?? new PyDict(),
    actions,
    expect_divergences: (plain.expect_divergences ?? []).map((d) => shiftOffHooks(d, actions)),
    fixtures: plain.fixtures ?? [],
  };
}

export function loadScenario(file: string): Scenario {
  return parseScenario(readFileSync(resolve(SCENARIOS_DIR, file), "utf8"));
}
