// The first answer about a long flow the server has not read yet (docs/guides/ui.md "Big flows"):
// its page from the flow file's JSON and the steps around the current one (checker outlineSteps),
// without decoding the whole flow or checking the whole spec, which take seconds for 10,000 steps.
// Marked `unchecked`: the page shows it without the gate panel (nothing is decided on an unchecked
// spec) and asks again for the checked page, which the server builds right after this answer. Null
// whenever the file is not plainly readable this way: the caller then answers the checked page.

import { outlineSteps } from "../checker/index";
import { applyEntriesToPlain, plainJson, type StoredFlow } from "../interpreter/index";
import type { AuditRecord, FlowListItem, FlowListStatus, FlowPage, StepView } from "./api-types";
import {
  clampLimit,
  PAGE_SIZE,
  type PageWindow,
  pageStart,
  recordsByStep,
  specWindow,
  stepStates,
} from "./views";

/** Below this many characters of flow file the checked page is quick enough to be the first answer. */
export const FIRST_PAGE_MIN_CHARS = 128 * 1024;

/**
 * At most this many journal entries are applied to the flow file's JSON for the first answer. A
 * journal near the store's snapshot threshold holds as many characters as the snapshot (thousands of
 * entries, each parsed on its own): beyond this the first answer would cost as much as the checked
 * page's decoding, so the checked page answers.
 */
export const FIRST_PAGE_MAX_ENTRIES = 1_000;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const RECORD_TYPES: ReadonlySet<unknown> = new Set(["step", "gate", "skip", "policy"]);

/** The trace records of a list as written, or null when one is not a record. */
function records(value: unknown): AuditRecord[] | null {
  if (!Array.isArray(value)) return null;
  for (const r of value)
    if (
      !isObject(r) ||
      typeof r.step_id !== "string" ||
      !RECORD_TYPES.has(r.type) ||
      typeof r.round !== "number"
    )
      return null;
  return value as AuditRecord[];
}

/**
 * A record as the checked reading gives it: a step record read back has the result cache's keys
 * (false and null in older files). Made for the records shown only: a long flow has thousands.
 */
function readBack(r: AuditRecord): AuditRecord {
  return r.type === "step"
    ? { ...r, cache_hit: r.cache_hit ?? false, cache_key: r.cache_key ?? null }
    : { ...r };
}

/**
 * The unchecked first page of `stored` (flow `flowId`), or null (also above `maxEntries` journal
 * entries, and below `minChars` characters of flow file).
 */
export function firstPage(
  flowId: string,
  stored: StoredFlow,
  window: PageWindow,
  maxEntries = FIRST_PAGE_MAX_ENTRIES,
  minChars = FIRST_PAGE_MIN_CHARS,
): FlowPage | null {
  if (stored.text.length < minChars || stored.deltaProblem !== undefined || stored.deltas.length > maxEntries)
    return null;
  // A long flow at its gate has journal entries almost always: the file store writes a snapshot
  // only once its journal is as large as the snapshot.
  const state = plainJson(stored.text);
  if (!isObject(state) || !applyEntriesToPlain(state, stored.deltas, stored.revision)) return null;
  const { flow_name: name, raw_spec: spec, current_idx: index, round, revision } = state;
  const terminal = state.terminal_status;
  const parent = state.parent_flow_id;
  const child = state.active_child_flow_id;
  const attempts = state.attempts;
  const outputs = state.step_outputs;
  const current = records(state.records);
  const rounds = Array.isArray(state.rounds) ? state.rounds.map(records) : null;
  if (
    typeof name !== "string" ||
    typeof spec !== "string" ||
    !Number.isSafeInteger(index) ||
    typeof round !== "number" ||
    typeof revision !== "number" ||
    (terminal !== null && terminal !== "killed" && terminal !== "budget_exhausted") ||
    (parent !== null && typeof parent !== "string") ||
    (child !== null && typeof child !== "string") ||
    !isObject(attempts) ||
    !isObject(outputs) ||
    current === null ||
    rounds === null ||
    rounds.some((r) => r === null)
  )
    return null;
  const currentIdx = index as number;
  const limit = clampLimit(window.limit ?? PAGE_SIZE);
  const outline = outlineSteps(
    spec,
    name,
    (total) => window.stepsOffset ?? pageStart(Math.min(currentIdx, total - 1), limit),
    limit,
  );
  if (outline === null || currentIdx < 0 || currentIdx > outline.total) return null;
  const step = outline.steps[currentIdx - outline.offset] ?? null;
  // Beyond the window the current step is unknown: the checked page answers.
  if (currentIdx < outline.total && step === null) return null;
  const attemptsOf = (id: string): number =>
    typeof attempts[id] === "number" ? (attempts[id] as number) : 0;
  const status: FlowListStatus =
    terminal ??
    (step === null
      ? "complete"
      : step.kind === "gate"
        ? "awaiting_gate"
        : attemptsOf(step.id) >= step.retries
          ? "exhausted"
          : "running");
  const item: FlowListItem = {
    flow_id: typeof state.flow_id === "string" ? state.flow_id : flowId,
    flow_name: name,
    status,
    current_step_id: status === "complete" ? null : (step?.id ?? null),
    step_count: outline.total,
    completed_steps: currentIdx,
    round,
    updated_ms: stored.modifiedMs ?? 0,
    gate: null,
    problem: null,
    parent_flow_id: parent as string | null,
  };
  const audit = [...(rounds as AuditRecord[][]).flat(), ...current];
  const shownIds = new Set(outline.steps.map((s) => s.id));
  const byStep = recordsByStep(audit.filter((r) => shownIds.has(r.step_id)).map(readBack));
  const states = stepStates(
    current.filter((r) => shownIds.has(r.step_id)),
    item,
  );
  const steps = outline.steps.map(
    (s): StepView => ({
      id: s.id,
      kind: s.kind,
      target: s.function ?? s.flow,
      state: states.get(s.id) ?? "pending",
      attempts: attemptsOf(s.id),
      retries: s.retries,
      output: outputs[s.id] ?? null,
      child_flow_id: childOf(byStep.get(s.id) ?? [], s.id === step?.id ? (child as string | null) : null),
      records: byStep.get(s.id) ?? [],
    }),
  );
  const auditOffset = window.auditOffset ?? pageStart(audit.length - 1, limit);
  return {
    flow: item,
    revision,
    spec: specWindow(spec, status === "complete" || step === null ? null : step.line),
    graph: null,
    steps,
    steps_offset: outline.offset,
    steps_total: outline.total,
    audit: audit.slice(auditOffset, auditOffset + limit).map(readBack),
    audit_offset: auditOffset,
    audit_total: audit.length,
    gate: null,
    inputs: state.inputs ?? null,
    review: null,
    unchecked: true,
  };
}

/** The sub-flow a step ran (its latest record's), else `running` (the child of the current step). */
function childOf(stepRecords: readonly AuditRecord[], running: string | null): string | null {
  for (let i = stepRecords.length - 1; i >= 0; i--) {
    const c = stepRecords[i]?.child_flow_id;
    if (typeof c === "string") return c;
  }
  return running;
}
