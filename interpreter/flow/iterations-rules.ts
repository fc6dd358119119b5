// The pure rules of an iteration report (docs/reference/runtime.md §9.2): result fingerprints, the stagnation
// rule and the choice of the outcome.
import { canonicalJson } from "../../stdlib/values/json";
import type { PyValue } from "../../stdlib/values/value";
import type { IterationEntry } from "../base/flow-state";
import { sha256Hex } from "./sha256";

export type ReportOutcome = "exit_success" | "exit_stagnation" | "exit_max" | "continue";

/** Texts up to this length have their digest remembered (longer ones are rarely reported twice). */
const REMEMBERED_TEXT = 2048;
/** How many digests are remembered: past it the memo starts again empty, so it stays small. */
const REMEMBERED_DIGESTS = 256;
/**
 * Canonical text → digest of results reported lately. A loop is often reported the same result
 * again (stagnation is three in a row; the fuzzer reports a few results over and over), and the
 * digest of an equal text is the same: hashing it again only costs time.
 */
const digests = new Map<string, string>();

/** Lowercase hex SHA-256 of the canonical JSON of the raw result. */
export function resultFingerprint(result: PyValue): string {
  const text = canonicalJson(result);
  if (text.length > REMEMBERED_TEXT) return sha256Hex(text);
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = sha256Hex(text);
    if (digests.size >= REMEMBERED_DIGESTS) digests.clear();
    digests.set(text, digest);
  }
  return digest;
}

/**
 * Three identical consecutive results: the last two entries of the step's history in this round
 * (across loops, as the reference) carry this fingerprint. Abort entries have no fingerprint, so
 * they break a run.
 */
export function isStagnant(history: readonly IterationEntry[], fingerprint: string): boolean {
  const n = history.length;
  if (n < 2) return false;
  return (
    history[n - 1]?.result_fingerprint === fingerprint && history[n - 2]?.result_fingerprint === fingerprint
  );
}

export interface OutcomeFacts {
  readonly criterionMet: boolean;
  /** Only checked when the criterion is not met and the step has no `accumulate`. */
  readonly stagnant: boolean;
  readonly count: number;
  readonly maxIterations: number;
}

/** exit_success > exit_stagnation > exit_max > continue. */
export function reportOutcome(facts: OutcomeFacts): ReportOutcome {
  if (facts.criterionMet) return "exit_success";
  if (facts.stagnant) return "exit_stagnation";
  if (facts.count >= facts.maxIterations) return "exit_max";
  return "continue";
}
