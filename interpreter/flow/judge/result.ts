// The judge's result object (docs/reference/runtime.md §25.3), shaped as the reference's
// JudgeResult.to_dict(): the review-result keys (clean, summary, findings, meta, …) and the
// judge's own (met, stakes, predicates, tier_disagreements, budget_consumed, judge_kernel_meta).
// Only the deterministic tier runs here, so there is no evidence, no T3 and no degraded predicate.
import { dictGetStr } from "../../../stdlib/values/dict";
import { type PyDict, PyFloat, type PyValue } from "../../../stdlib/values/value";
import type { Response, Wire } from "../../wire/wire";
import type { TierRecord } from "./t1";

/** One predicate and its verdict. */
export interface Judged {
  readonly predicate: PyDict;
  readonly record: TierRecord;
}

/** A met verdict below this confidence is ambiguous (the reference's default applied_gate). */
const DEFAULT_APPLIED_GATE = 7;

/** The predicate's verdict: a met one below its applied_gate (default 7) is ambiguous. */
export function finalVerdict({ predicate, record }: Judged): string {
  const appliedGate = dictGetStr(predicate, "applied_gate") ?? DEFAULT_APPLIED_GATE;
  const gate = typeof appliedGate === "number" ? appliedGate : DEFAULT_APPLIED_GATE;
  return record.verdict === "met" && record.confidence < gate ? "ambiguous" : record.verdict;
}

/** The result of the step's judge turn `turn` (1 for its first call). */
export function judgeResult(
  judged: readonly Judged[],
  stakes: string,
  wallClockS: number,
  turn: number,
): Response {
  const predicates = judged.map(predicateResult);
  const met = predicates.every((p) => p.verdict === "met");
  const nMet = predicates.filter((p) => p.verdict === "met").length;
  const tiers = judged.length === 0 ? "" : "T1";
  return {
    clean: met,
    summary: `judge: ${nMet}/${predicates.length} predicates met (${tiers}, judge); degraded_judged=false`,
    findings: predicates.filter((p) => p.verdict !== "met").map(finding),
    meta: {
      agent_type: "judge",
      model_id: null,
      t3_summary: { reached: 0, by_mode: {}, all_jailed: false, any_degraded: false },
    },
    consensus: [],
    claude_only: [],
    codex_only: [],
    lenses_run: [],
    auto_fixes: [],
    asks: [],
    judge_version: "1.0",
    met,
    stakes,
    predicates: predicates.map((p) => p.wire),
    tier_disagreements: [],
    budget_consumed: { turns: turn, dollars: new PyFloat(0), wall_clock_s: new PyFloat(wallClockS) },
    judge_kernel_meta: { decomposer_mode: "user", smartmemory_priors_consulted: 0, degraded_judged: false },
  };
}

interface PredicateResult {
  readonly verdict: string;
  readonly statement: PyValue;
  readonly confidence: number;
  readonly appliedGate: PyValue;
  readonly reason: string;
  readonly wire: Wire;
}

function predicateResult(judged: Judged): PredicateResult {
  const { predicate, record } = judged;
  const appliedGate = dictGetStr(predicate, "applied_gate") ?? DEFAULT_APPLIED_GATE;
  const verdict = finalVerdict(judged);
  const statement = dictGetStr(predicate, "statement") ?? null;
  return {
    verdict,
    statement,
    confidence: record.confidence,
    appliedGate,
    reason: record.reason,
    wire: {
      id: dictGetStr(predicate, "id") ?? null,
      type: dictGetStr(predicate, "type") ?? null,
      statement,
      verdict,
      confidence: record.confidence,
      applied_gate: appliedGate,
      evidence: [],
      tier_history: [
        { tier: record.tier, verdict: record.verdict, confidence: record.confidence, reason: record.reason },
      ],
      t3: null,
    },
  };
}

function finding(p: PredicateResult): Wire {
  return {
    lens: "judge",
    severity: p.verdict === "not_met" ? "must-fix" : "should-fix",
    finding: `${typeof p.statement === "string" ? p.statement : ""} — ${p.reason}`,
    confidence: p.confidence,
    applied_gate: p.appliedGate,
  };
}
