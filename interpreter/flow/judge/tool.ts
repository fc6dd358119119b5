// `stratum_judge` (docs/reference/runtime.md §25.3): checks that the caller hands over exactly the
// current judge step's declaration, then judges its predicates and answers the judge's result. A
// judged call is a turn of the step, recorded in the flow's judge history (history.ts), which
// `budget.max_turns` caps; the flow does not advance (the caller reports the verdict with
// stratum_step_done).
//
// Deterministic predicates are decided here (t1.ts). A verified or judged predicate goes to the
// verifier tier (t2.ts), an agent the host runs. Since an agent takes minutes, a call with such
// predicates is judged in two passes around the agents (engine/judge-call.ts): the first checks
// the call and collects what to ask, without keeping anything; the agents answer outside any
// transaction; the second judges everything again with their answers and records the turn.
// Without a verifier (an in-process API with no host) the call answers `verifier_unavailable`
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
import { evaluateT1, JudgeError, type TierRecord } from "./t1";
import {
  readT2Reply,
  T2_ALLOWED_TOOLS,
  T2_DISALLOWED_TOOLS,
  T2_MODEL,
  t2Prompt,
  type VerifierAnswer,
  type VerifierRequest,
} from "./t2";

/** The largest file copied into the verifier's staged tree (a longer one is cut there). */
const STAGED_FILE_MAX_BYTES = 16 * 1024 * 1024;

/** What the deterministic tier records for a predicate it passes on to the verifier. */
const PASSED_ON: TierRecord = {
  tier: "T1",
  verdict: "n/a",
  confidence: null,
  reason: "non-deterministic predicate",
};

/** The verifier's answer to the predicate at `index`, and when it came (the flow's clock, ms). */
export interface VerifierReply {
  readonly index: number;
  readonly answer: VerifierAnswer;
  readonly atMs: number;
}

/** What the first pass found to ask the verifier, in predicate order, and when the call began. */
export interface VerifierPlan {
  readonly startedMs: number;
  readonly requests: readonly VerifierStep[];
}

/** One predicate to ask: what to run, and whether a reply gives a verdict (else the call ends there). */
interface VerifierStep {
  readonly index: number;
  /** The predicate's id. */
  readonly id: string;
  readonly request: VerifierRequest;
  readonly gives: (text: string) => boolean;
}

/**
 * How a call treats the predicates a verifier decides: `alone` without a verifier
 * (verifier_unavailable); `collect`, the first pass, hands its plan to `found` and keeps nothing;
 * `finish`, the second, judges them with the replies (the first pass's start is the call's).
 */
export type JudgeMode =
  | { readonly kind: "alone" }
  | { readonly kind: "collect"; readonly found: (plan: VerifierPlan) => void }
  | { readonly kind: "finish"; readonly replies: readonly VerifierReply[]; readonly startedMs: number };

const ALONE: JudgeMode = { kind: "alone" };

/** The keys the reference's Predicate takes; any other key of a predicate cannot be built. */
const PREDICATE_FIELDS = ["id", "type", "statement", "applied_gate"];

export function judge(tx: Tx, args: JudgeArgs, mode: JudgeMode = ALONE): Response {
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
  return runJudge(tx, args, predicates as PyDict[], stakes, nextTurn(run, step.id), mode);
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
  mode: JudgeMode,
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
  const started = mode.kind === "finish" ? mode.startedMs : tx.clock.monoMs();
  const maxWallClock = budgetNumber(args.budget ?? null, "max_wall_clock_s");
  const judged: Judged[] = [];
  const requests: VerifierStep[] = [];
  // The flow's clock when the latest verifier answered (the replies came before this pass).
  let lastReplyMs = started;
  for (const [index, p] of predicates.entries()) {
    const id = text(p, "id");
    const type = text(p, "type");
    const tree = new StagedTree(args.artifacts, args.modified_files ?? [], workspace);
    if (type !== "deterministic") {
      if (mode.kind === "alone") {
        return toolError(
          "verifier_unavailable",
          `predicate ${strRepr(id)} is ${type}: it needs an agent verifier, and this server runs no agents; decide it yourself and report the verdict with stratum_step_done`,
        );
      }
      if (mode.kind === "collect") {
        requests.push({
          index,
          id,
          request: verifierRequest(p, id, type, tree),
          gives: (reply) => readT2Reply(reply, tree).ok,
        });
        continue;
      }
      const reply = mode.replies.find((r) => r.index === index);
      if (reply === undefined) throw new Error(`no verifier reply for predicate ${index}`);
      lastReplyMs = reply.atMs;
      if (!reply.answer.ok) {
        return toolError(
          "verifier_failed",
          `the verifier of predicate ${strRepr(id)} failed (${reply.answer.errorType}): ${reply.answer.message}`,
        );
      }
      const read = readT2Reply(reply.answer.text, tree);
      if (!read.ok) {
        const message =
          read.errorType === "verifier_failed" ? `predicate ${strRepr(id)}: ${read.message}` : read.message;
        return toolError(read.errorType, message);
      }
      judged.push({ predicate: p, history: [PASSED_ON, read.record], evidence: read.evidence });
    } else {
      try {
        judged.push({ predicate: p, history: [evaluateT1(id, text(p, "statement"), tree)], evidence: [] });
      } catch (e) {
        if (e instanceof JudgeError) return toolError(e.errorType, e.message);
        throw e;
      }
    }
    // The first pass leaves the time checks to the second, which knows when the agents answered.
    if (mode.kind === "collect") continue;
    const now = mode.kind === "finish" ? lastReplyMs : tx.clock.monoMs();
    const elapsed = (now - started) / 1000;
    if (maxWallClock !== null && maxWallClock > 0 && elapsed > maxWallClock) {
      return toolError(
        "BudgetExceededError",
        `wall-clock budget exceeded at ${elapsed.toFixed(1)}s (cap=${maxWallClock}s)`,
      );
    }
  }
  if (mode.kind === "collect" && requests.length > 0) {
    mode.found({ startedMs: started, requests });
    // Not an answer anyone sees: the first pass keeps nothing, and the call goes on.
    return toolError("verifier_pending", "the verifier tier runs next");
  }
  const result = judgeResult(judged, stakes, (tx.clock.monoMs() - started) / 1000, turn);
  const run = tx.edit(args.flow_id);
  if (run !== null) recordTurn(run, args.step_id, turn, judged);
  return result;
}

function verifierRequest(p: PyDict, id: string, type: string, tree: StagedTree): VerifierRequest {
  const predicate = {
    id,
    type,
    statement: text(p, "statement"),
    appliedGate: str(dictGetStr(p, "applied_gate") ?? 7),
  };
  return {
    prompt: (root) => t2Prompt(predicate, root),
    model: T2_MODEL,
    allowedTools: T2_ALLOWED_TOOLS,
    disallowedTools: T2_DISALLOWED_TOOLS,
    files: tree.files(STAGED_FILE_MAX_BYTES),
  };
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
