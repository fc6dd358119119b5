// The result cache (docs/reference/runtime.md §25.4): a compute function step with `cache: true`
// (its own or its function's) whose step, function and resolved inputs were seen before is
// answered with the stored, still valid, output instead of being dispatched. The key is a SHA-256
// over the cache format, the flow name, the step id, canonical texts of the step's and its
// function's definitions and the resolved inputs: editing a step misses it, and everything after
// it misses through its inputs. The core does no I/O: the store is injected (ResultCacheStore).
import type { StepMode } from "../../checker/base/step-kinds";
import type { CheckedSpec, FunctionIR, StepIR } from "../../checker/ir/types";
import type { PyValue } from "../../stdlib/values/value";
import { encodeWire } from "../wire/encode";
import { appendItem } from "./edits";
import { resolveInputs } from "./inputs";
import { stepRecord } from "./records";
import { checkResult } from "./result-checks";
import type { FlowRun } from "./run";
import { sha256Hex } from "./sha256";
import { storeOutput } from "./store-output";
import type { Tx } from "./tx";

/** Bumped when the key or the entry changes: older entries then miss. */
export const RESULT_CACHE_VERSION = 1;

/** What a store keeps for a key: the validated output and where it came from. */
export interface ResultCacheEntry {
  readonly key: string;
  readonly flowName: string;
  readonly stepId: string;
  /** The flow whose step produced the output. */
  readonly sourceFlowId: string;
  readonly output: PyValue;
}

/**
 * Where validated outputs are kept (host/result-cache/: files under STRATUM_HOME/cache/results).
 * Best effort both ways: any problem reading is a miss, any problem writing is ignored.
 */
export interface ResultCacheStore {
  /** The output stored under `key`, or null (absent, unreadable, damaged, too large, other version). */
  get(key: string): PyValue | null;
  put(entry: ResultCacheEntry): void;
}

/** The step's function when the step is a cached compute function step, else null. */
function cachedFunction(run: FlowRun, step: StepIR): FunctionIR | null {
  if (step.function === null) return null;
  const fn = run.spec.functions.get(step.function);
  if (fn === undefined || fn.mode !== "compute") return null;
  return step.cache || fn.cache ? fn : null;
}

/**
 * The key of a step about to run with `inputs`; null when the inputs have no stable text (they
 * are then never cached).
 */
function resultCacheKey(run: FlowRun, step: StepIR, fn: FunctionIR, inputs: PyValue): string | null {
  let inputText: string;
  try {
    inputText = encodeWire(inputs);
  } catch {
    return null;
  }
  const parts = [
    String(RESULT_CACHE_VERSION),
    run.flow.name,
    step.id,
    canonicalText(stepFingerprint(step)),
    canonicalText(functionFingerprint(run.spec, fn)),
    inputText,
  ];
  // U+2016 cannot appear in a hex digest, and delimits the names (the reference's separator).
  return sha256Hex(parts.join("\u2016"));
}

/**
 * At dispatch: answers a cached step from the store when it holds an output for the step's key
 * that passes the step's checks today (docs/reference/runtime.md §25.4). The step then has a
 * record with `attempts: 0`, `cache_hit: true` and the key, its output is stored and the flow moves
 * on. False when there is no store, the step is not cached, or the store has nothing valid.
 */
export function replayCached(tx: Tx, run: FlowRun, step: StepIR, stepMode: StepMode): boolean {
  const store = tx.results;
  if (store === null) return false;
  const fn = cachedFunction(run, step);
  if (fn === null) return false;
  const key = resultCacheKey(run, step, fn, resolveInputs(run, step));
  if (key === null) return false;
  const output = store.get(key);
  if (output === null || !checkResult(tx, run, step, output).ok) return false;
  storeOutput(tx, run, step, output);
  appendItem(
    run,
    "records",
    stepRecord(
      run,
      {
        step_id: step.id,
        function_name: fn.name,
        attempts: 0,
        duration_ms: 0,
        agent: step.agent,
        step_mode: stepMode,
        child_flow_id: null,
      },
      key,
    ),
  );
  run.state.current_idx += 1;
  return true;
}

/** At a successful stratum_step_done of a cached step: hands its output to the store. */
export function storeCached(tx: Tx, run: FlowRun, step: StepIR, output: PyValue): void {
  const store = tx.results;
  if (store === null) return;
  const fn = cachedFunction(run, step);
  if (fn === null) return;
  let inputs: PyValue;
  try {
    inputs = resolveInputs(run, step);
  } catch {
    return; // inputs that no longer resolve have no key
  }
  const key = resultCacheKey(run, step, fn, inputs);
  if (key === null) return;
  store.put({ key, flowName: run.flow.name, stepId: step.id, sourceFlowId: run.state.flow_id, output });
}

type Canonical =
  | null
  | boolean
  | number
  | string
  | readonly Canonical[]
  | { readonly [k: string]: Canonical };

/** What of a step decides its result: everything it declares but its position and source ranges. */
function stepFingerprint(step: StepIR): Canonical {
  return {
    accumulate: step.accumulate?.text ?? null,
    accumulate_key: step.accumulateKey?.text ?? null,
    agent: step.agent,
    cache: step.cache,
    depends_on: [...step.dependsOn].sort(),
    ensure: step.ensure.map((e) => e.text),
    exit_criterion: step.exitCriterion?.text ?? null,
    flow: step.flow,
    function: step.function,
    id: step.id,
    inputs: Object.fromEntries(step.inputs.map((i) => [i.name, i.raw])),
    intent: step.intent,
    kind: step.kind,
    max_iterations: step.maxIterations,
    next: step.next,
    on_fail: step.onFail,
    output_contract: step.outputContract,
    output_schema: plain(step.outputSchema),
    // As written, as the reference's fingerprint has it (a string stays a string).
    pre_merge_verify:
      typeof step.preMergeVerify === "string"
        ? step.preMergeVerify
        : step.preMergeVerify === null
          ? null
          : [...step.preMergeVerify],
    skip_if: step.skipIf?.text ?? null,
  };
}

/** What of a function decides its steps' results, with its output contract's fields. */
function functionFingerprint(spec: CheckedSpec, fn: FunctionIR): Canonical {
  const contract = fn.output === "" ? undefined : spec.contracts.get(fn.output);
  return {
    cache: fn.cache,
    ensure: fn.ensure.map((e) => e.text),
    input: plain(fn.input),
    intent: fn.intent,
    mode: fn.mode,
    model: fn.model,
    name: fn.name,
    output: fn.output,
    output_contract_fields: contract === undefined ? null : plain(Object.fromEntries(contract.fields)),
  };
}

/** Plain data of IR values (JSON objects, field definitions): maps become objects, classes their fields. */
function plain(value: unknown): Canonical {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean" || typeof value === "number" || typeof value === "string") return value;
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), plain(v)]));
  if (typeof value === "object") {
    const out: Record<string, Canonical> = {};
    for (const [k, v] of Object.entries(value)) out[k] = plain(v);
    return out;
  }
  return null;
}

/** JSON with sorted keys, so that equal definitions give equal texts whatever their key order. */
function canonicalText(value: Canonical): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(",")}]`;
  const object = value as { readonly [k: string]: Canonical };
  const keys = Object.keys(object).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalText(object[k] ?? null)}`).join(",")}}`;
}
