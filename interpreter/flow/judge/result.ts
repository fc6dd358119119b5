// The judge's result object (docs/reference/runtime.md §25.3), shaped as the reference's
// JudgeResult.to_dict(): the review-result keys (clean, summary, findings, meta, …) and the
// judge's own (met, stakes, predicates, tier_disagreements, budget_consumed, judge_kernel_meta).
// The deterministic tier (T1) and the verifier tier (T2) run here; the adversarial tier (T3) does
// not, so every judged predicate is a degraded one.
import { dictGetStr } from "../../../stdlib/values/dict";
import { type PyDict, PyFloat, type PyValue } from "../../../stdlib/values/value";
import type { Response, Wire } from "../../wire/wire";
import type { TierRecord } from "./t1";
import { type Evidence, T2_MODEL } from "./t2";

/** One predicate, what each tier said (the last decides) and the verifier's citations. */
export interface Judged {
  readonly predicate: PyDict;
  readonly history: readonly TierRecord[];
  readonly evidence: readonly Evidence[];
}

/** The tier whose verdict stands: the last that ran. */
function finalRecord(judged: Judged): TierRecord {
  const last = judged.history.at(-1);
  if (last === undefined) throw new Error("a judged predicate without a tier record");
  return last;
}

function evidenceWire(e: Evidence): Wire {
  return { source: e.source, quote: e.quote, tier: e.tier };
}

function tierWire(r: TierRecord): Wire {
  return { tier: r.tier, verdict: r.verdict, confidence: r.confidence, reason: r.reason };
}

/** A met verdict below this confidence is ambiguous (the reference's default applied_gate). */
const DEFAULT_APPLIED_GATE = 7;

/** The predicate's verdict: a met one below its applied_gate (default 7) is ambiguous. */
export function finalVerdict(judged: Judged): string {
  const record = finalRecord(judged);
  const appliedGate = dictGetStr(judged.predicate, "applied_gate") ?? DEFAULT_APPLIED_GATE;
  const gate = typeof appliedGate === "number" ? appliedGate : DEFAULT_APPLIED_GATE;
  return record.verdict === "met" && (record.confidence ?? 0) < gate ? "ambiguous" : record.verdict;
}

/** The final confidence, 0 when the tier gave none. */
export function finalConfidence(judged: Judged): number {
  return finalRecord(judged).confidence ?? 0;
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
  const tiers = [
    ...new Set(judged.flatMap((j) => j.history.filter((r) => r.verdict !== "n/a").map((r) => r.tier))),
  ].sort();
  const deterministicOnly = judged.every((j) => dictGetStr(j.predicate, "type") === "deterministic");
  const agentType = deterministicOnly ? "judge" : "claude";
  // No adversarial tier runs here: every judged predicate goes without one.
  const degraded = judged.some((j) => dictGetStr(j.predicate, "type") === "judged");
  return {
    clean: met,
    summary: `judge: ${nMet}/${predicates.length} predicates met (${tiers.join("+")}, ${agentType}); degraded_judged=${degraded}`,
    findings: predicates.filter((p) => p.verdict !== "met").map(finding),
    meta: {
      agent_type: agentType,
      model_id: deterministicOnly ? null : T2_MODEL,
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
    judge_kernel_meta: {
      decomposer_mode: "user",
      smartmemory_priors_consulted: 0,
      degraded_judged: degraded,
    },
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
  const { predicate } = judged;
  const record = finalRecord(judged);
  const appliedGate = dictGetStr(predicate, "applied_gate") ?? DEFAULT_APPLIED_GATE;
  const verdict = finalVerdict(judged);
  const statement = dictGetStr(predicate, "statement") ?? null;
  return {
    verdict,
    statement,
    confidence: finalConfidence(judged),
    appliedGate,
    reason: record.reason,
    wire: {
      id: dictGetStr(predicate, "id") ?? null,
      type: dictGetStr(predicate, "type") ?? null,
      statement,
      verdict,
      confidence: finalConfidence(judged),
      applied_gate: appliedGate,
      evidence: judged.evidence.map(evidenceWire),
      tier_history: judged.history.map(tierWire),
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
