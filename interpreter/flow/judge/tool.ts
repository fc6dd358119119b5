// `stratum_judge` (docs/reference/runtime.md §25.3): checks that the caller hands over exactly the
// current judge step's declaration, then judges its predicates and answers the judge's result. A
// judged call is a turn of the step, recorded in the flow's judge history (history.ts), which
// `budget.max_turns` caps; the flow does not advance (the caller reports the verdict with
// stratum_step_done).
//
// Deterministic predicates are decided here (t1.ts). A verified or judged predicate needs the
// reference's agent verifier, which stratumc does not run: the call answers `verifier_unavailable`
// instead of inventing a verdict.
import type { JudgeIR } from "../../../checker/ir/types";
import { dictGetStr } from "../../../stdlib/values/dict";
import { pyEquals } from "../../../stdlib/values/equality";
import { fromJsonValue } from "../../../stdlib/values/json";
import { pyCompare } from "../../../stdlib/values/ordering";
import { repr, str, strRepr } from "../../../stdlib/values/repr";
import { truthy } from "../../../stdlib/values/truth";
import { PyDict, PyFloat, type PyValue } from "../../../stdlib/values/value";
import type { JudgeArgs } from "../../api";
import { flowNotFound, toolError } from "../../base/tool-errors";
import type { Response } from "../../wire/wire";
import { currentStep } from "../current";
import type { Tx } from "../tx";
import { nextTurn, recordTurn } from "./history";
import { type Judged, judgeResult } from "./result";
import { StagedTree } from "./staged-tree";
import { evaluateT1, JudgeError } from "./t1";

/** The keys the reference's Predicate takes; any other key of a predicate cannot be built. */
const PREDICATE_FIELDS = ["id", "type", "statement", "applied_gate"];

export function judge(tx: Tx, args: JudgeArgs): Response {
  const run = tx.read(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  const step = currentStep(run);
  if (step === null || step.id !== args.step_id) {
    return toolError(
      "step_mismatch",
      `step_id ${strRepr(args.step_id)} is not the current judge step (current: ${step?.id ?? "None"})`,
    );
  }
  const declared = step.judge ?? null;
  if (declared === null) {
    return toolError("not_a_judge_step", `step ${strRepr(args.step_id)} is not declared as a judge step`);
  }
  const stakes = args.stakes ?? "default";
  const mismatch = declarationMismatch(declared, args, stakes);
  if (mismatch !== null) return mismatch;
  const predicates = Array.isArray(args.predicates) ? args.predicates : [];
  const unbuildable = predicates.map(predicateProblem).find((p) => p !== null);
  if (unbuildable !== undefined && unbuildable !== null) {
    return toolError("invalid_predicate", `failed to parse predicate dict: ${unbuildable}`);
  }
  return runJudge(tx, args, predicates as PyDict[], stakes, nextTurn(run, step.id));
}

function declarationMismatch(declared: JudgeIR, args: JudgeArgs, stakes: string): Response | null {
  if (!pyEquals(args.predicates, declared.predicates.map(fromJsonValue))) {
    return toolError(
      "predicates_mismatch",
      "predicates payload does not match the flow's judge: declaration",
    );
  }
  if (stakes !== declared.stakes) {
    return toolError(
      "stakes_mismatch",
      `stakes ${strRepr(stakes)} does not match IR declaration ${strRepr(declared.stakes)}`,
    );
  }
  // An empty budget is no budget, on either side.
  const given = emptyToNull(args.budget ?? null);
  const own = emptyToNull(declared.budget === null ? null : fromJsonValue(declared.budget));
  if (!pyEquals(given, own)) {
    return toolError("budget_mismatch", "budget payload does not match the flow's judge: declaration");
  }
  return null;
}

function emptyToNull(v: PyValue): PyValue {
  return v instanceof PyDict && v.size === 0 ? null : v;
}

/** Python's TypeError when the predicate dict does not fit Predicate(**p), else null. */
function predicateProblem(p: PyValue): string | null {
  if (!(p instanceof PyDict)) return "argument after ** must be a mapping";
  for (const [key] of p.entries.values()) {
    if (typeof key === "string" && !PREDICATE_FIELDS.includes(key)) {
      return `Predicate.__init__() got an unexpected keyword argument ${strRepr(key)}`;
    }
  }
  const missing = PREDICATE_FIELDS.slice(0, 3).filter((k) => dictGetStr(p, k) === undefined);
  if (missing.length === 0) return null;
  const names = missing.map((k) => strRepr(k));
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `Predicate.__init__() missing ${missing.length} required positional argument${missing.length === 1 ? "" : "s"}: ${list}`;
}

function text(p: PyDict, key: string): string {
  const v = dictGetStr(p, key);
  return typeof v === "string" ? v : repr(v ?? null);
}

function runJudge(
  tx: Tx,
  args: JudgeArgs,
  predicates: readonly PyDict[],
  stakes: string,
  turn: number,
): Response {
  if (stakes === "cheap") {
    const interpretive = predicates.filter((p) => dictGetStr(p, "type") !== "deterministic");
    if (interpretive.length > 0) {
      const ids = repr(interpretive.map((p) => dictGetStr(p, "id") ?? null));
      return toolError(
        "StakesPredicateMismatchError",
        `'cheap' stakes rejects non-deterministic predicates: ${ids}`,
      );
    }
  }
  const maxTurns = truthy(args.budget ?? null) ? budgetValue(args.budget ?? null, "max_turns") : null;
  if (maxTurns !== null && truthy(maxTurns) && pyCompare(">", turn, maxTurns)) {
    return toolError(
      "BudgetExceededError",
      `turn budget exceeded: next turn would be ${turn}, max_turns=${str(maxTurns)}`,
    );
  }
  const refused = stagingProblem(args);
  if (refused !== null) return toolError("invalid_artifact", refused);
  const workspace = tx.files(tx.read(args.flow_id)?.state.cwd ?? tx.serverCwd);
  const started = tx.clock.monoMs();
  const maxWallClock = budgetNumber(args.budget ?? null, "max_wall_clock_s");
  const judged: Judged[] = [];
  for (const p of predicates) {
    const id = text(p, "id");
    const type = text(p, "type");
    if (type !== "deterministic") {
      return toolError(
        "verifier_unavailable",
        `predicate ${strRepr(id)} is ${type}: it needs the reference's agent verifier, which stratumc does not run; decide it yourself and report the verdict with stratum_step_done`,
      );
    }
    const tree = new StagedTree(args.artifacts, args.modified_files ?? [], workspace);
    try {
      judged.push({ predicate: p, record: evaluateT1(id, text(p, "statement"), tree) });
    } catch (e) {
      if (e instanceof JudgeError) return toolError(e.errorType, e.message);
      throw e;
    }
    const elapsed = (tx.clock.monoMs() - started) / 1000;
    if (maxWallClock !== null && maxWallClock > 0 && elapsed > maxWallClock) {
      return toolError(
        "BudgetExceededError",
        `wall-clock budget exceeded at ${elapsed.toFixed(1)}s (cap=${maxWallClock}s)`,
      );
    }
  }
  const result = judgeResult(judged, stakes, (tx.clock.monoMs() - started) / 1000, turn);
  const run = tx.edit(args.flow_id);
  if (run !== null) recordTurn(run, args.step_id, turn, judged);
  return result;
}

function budgetValue(budget: PyValue, key: string): PyValue {
  return budget instanceof PyDict ? (dictGetStr(budget, key) ?? null) : null;
}

function budgetNumber(budget: PyValue, key: string): number | null {
  if (!(budget instanceof PyDict)) return null;
  const v = dictGetStr(budget, key);
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  return v instanceof PyFloat ? v.v : null;
}

/** The reference's checks of the names it turns into staging paths (a ValueError there). */
function stagingProblem(args: JudgeArgs): string | null {
  for (const name of args.artifacts.keys()) {
    const shown = strRepr(name);
    if (name === "") return `artifact name must be a non-empty string: ${shown}`;
    if (name === "." || name === "..") return `artifact name cannot be '.' or '..': ${shown}`;
    if (/[/\\\0]/.test(name)) return `artifact name must not contain path separators or null: ${shown}`;
    if (name.startsWith(".")) return `artifact name cannot start with '.': ${shown}`;
  }
  for (const rel of args.modified_files ?? []) {
    const shown = strRepr(rel);
    if (rel === "") return `modified path must be a non-empty string: ${shown}`;
    if (rel.includes("\0")) return `modified path must not contain null: ${shown}`;
    if (rel.startsWith("/") || rel.startsWith("\\"))
      return `modified path must be workspace-relative: ${shown}`;
    if (rel.replace(/\\/g, "/").split("/").includes(".."))
      return `modified path cannot contain '..': ${shown}`;
  }
  return null;
}
