// The runtime scenarios of test/conformance/recorded/scenarios/*.json (test/conformance/recorded/README.md §2): their
// shape, and loading them. User data (`inputs`, `result`) is decoded a second time with the
// kind-preserving parser, so `1.0` in a result stays a float as it would over MCP.
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { dictGetStr } from "../../../stdlib/values/dict";
import { parseJson } from "../../../stdlib/values/json";
import { PyDict, type PyValue } from "../../../stdlib/values/value";
import { CONFORMANCE_DIR } from "../../support/shared";
import { PENDING_0269 } from "./pending-0269";

const SCENARIOS_DIR = resolve(CONFORMANCE_DIR, "scenarios");
/** Runtime scenarios recorded from reference release 0.2.69 (test/conformance/recorded/README.md §5 and 6). */
const SCENARIOS_0269_DIR = resolve(CONFORMANCE_DIR, "scenarios-0269");

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
  | "parallel_done"
  | "plan"
  | "judge";

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
  "plan",
  "judge",
];

export interface Action {
  readonly op: ActionOp;
  /** "root" (default), "child", "child:N", "last_plan", or a literal flow id. */
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
  /** `plan`: the inputs of the further plan (kind-preserving); `spec` defaults to the scenario's. */
  readonly inputs?: PyValue;
  /** `step_done` (0.2.69): the optional token / dollar usage report (kind-preserving). */
  readonly usage?: PyValue;
  /** `judge` (0.2.69): `stratum_judge` arguments (kind-preserving). */
  readonly predicates?: PyValue;
  readonly artifacts?: PyValue;
  readonly stakes?: string;
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
  /** 0.2.69 recordings: environment variables set before the plan (e.g. a pricing table). */
  readonly env: Readonly<Record<string, string>>;
  /** The folder the file was loaded from: the scenario's working directory. */
  readonly dir: string;
}

/** The scenarios directory with symbolic links resolved (the `<CWD>` of test/conformance/recorded/README.md §2.2). */
export function scenariosCwd(): string {
  return realpathSync(SCENARIOS_DIR);
}

/** A scenario file: its folder (the working directory of its run) and its name. */
export interface ScenarioFile {
  readonly dir: string;
  readonly file: string;
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
}

/**
 * Every replayed scenario: the 0.2.50 recordings, and the 0.2.69 recordings (`scenarios/v0269_*`,
 * `scenarios-0269/`) except those whose behaviour is not built yet (`PENDING_0269`).
 */
export function scenarioFiles(): ScenarioFile[] {
  return allScenarioFiles().filter((f) => !PENDING_0269.has(f.file));
}

/** Every recorded scenario file, pending or not. */
export function allScenarioFiles(): ScenarioFile[] {
  const dir = scenariosCwd();
  const dir0269 = realpathSync(SCENARIOS_0269_DIR);
  return [
    ...jsonFiles(dir).map((file) => ({ dir, file })),
    ...jsonFiles(dir0269).map((file) => ({ dir: dir0269, file })),
  ];
}

function field(dict: PyValue, key: string): PyValue | undefined {
  return dict instanceof PyDict ? dictGetStr(dict, key) : undefined;
}

/** Action fields holding user data, decoded kind-preserving (`1.0` stays a float). */
const KIND_PRESERVING_FIELDS = [
  "result",
  "task_results",
  "inputs",
  "usage",
  "predicates",
  "artifacts",
] as const;

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

/**
 * Keys of the 0.2.69 result cache that the comparison drops from recorded responses, at any depth
 * (docs/reference/divergences.md §2): the result cache is not provided yet.
 */
const CACHE_KEYS: ReadonlySet<string> = new Set(["cache_hit", "cache_key", "cache_hits"]);

function withoutCacheKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutCacheKeys);
  if (typeof v !== "object" || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (!CACHE_KEYS.has(k)) out[k] = withoutCacheKeys(x);
  return out;
}

/** Keys a recording may carry that no replay reads. */
type Ignored = { recorded_from?: unknown; labels?: unknown; flow_file_after?: unknown };

export function parseScenario(text: string, dir: string = scenariosCwd()): Scenario {
  const plain = JSON.parse(text) as Scenario & Ignored & { actions: Action[]; inputs?: unknown };
  const typed = parseJson(text);
  const typedActions = field(typed, "actions");
  const actions = plain.actions.map((action, i): Action => {
    if (!ACTION_OPS.includes(action.op)) throw new Error(`${plain.name}: unknown op '${action.op}'`);
    const typedAction = Array.isArray(typedActions) ? (typedActions[i] ?? null) : null;
    const typedFields = Object.fromEntries(
      KIND_PRESERVING_FIELDS.map((k) => [k, field(typedAction, k)] as const).filter(
        ([, v]) => v !== undefined,
      ),
    );
    return { ...action, ...typedFields };
  });
  if (plain.reference.length !== actions.length + 1) {
    throw new Error(
      `${plain.name}: ${plain.reference.length} reference entries for ${actions.length} actions`,
    );
  }
  const { recorded_from: _r, labels: _l, flow_file_after: _f, ...kept } = plain;
  return {
    ...kept,
    reference: kept.reference.map((r) => ({ ...r, response: withoutCacheKeys(r.response) })),
    dir,
    env: plain.env ?? {},
    inputs: field(typed, "inputs") ?? new PyDict(),
    actions,
    expect_divergences: (plain.expect_divergences ?? []).map((d) => shiftOffHooks(d, actions)),
    fixtures: plain.fixtures ?? [],
  };
}

export function loadScenario(where: ScenarioFile): Scenario {
  return parseScenario(readFileSync(resolve(where.dir, where.file), "utf8"), where.dir);
}
