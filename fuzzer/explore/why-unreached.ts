// Why no run reached a step, in words a person can act on: the routes that lead to it (from the
// checked IR, the same routes the interpreter follows) against what the runs did with each source
// (never dispatched, never passed, never exhausted, skipped by its own skip_if), and otherwise how
// the runs ended. Only explains; it decides nothing.
import type { FlowIR, StepIR } from "../../checker/index";
import { type Coverage, type RelatedPlace, stepKey } from "../run/observation";

/** A route into a step: taken when `from` passes, exhausts its retries, or a gate outcome. */
interface Route {
  readonly from: StepIR;
  readonly when: "passes" | "exhausted" | "approve" | "revise" | "kill" | "skipped";
  /** The field that names the target (`next`, `on_fail`, …), or null for the fall-through. */
  readonly field: string | null;
}

/** Every route into `target` (docs/reference/runtime.md §4 to docs/reference/runtime.md §6: next, fall-through, on_fail, gate routes). */
function routesInto(flow: FlowIR, target: StepIR): Route[] {
  const out: Route[] = [];
  flow.steps.forEach((s, i) => {
    const following = flow.steps[i + 1];
    if (s.kind === "gate") {
      if (s.onApprove === target.id) out.push({ from: s, when: "approve", field: "on_approve" });
      if (s.onRevise === target.id) out.push({ from: s, when: "revise", field: "on_revise" });
      if (s.onKill === target.id) out.push({ from: s, when: "kill", field: "on_kill" });
      return;
    }
    if (s.next === target.id) out.push({ from: s, when: "passes", field: "next" });
    else if (s.next === null && following === target) out.push({ from: s, when: "passes", field: null });
    if (s.onFail === target.id) out.push({ from: s, when: "exhausted", field: "on_fail" });
    // A step its skip_if skips moves on to the following position.
    if (s.skipIf !== null && following === target) out.push({ from: s, when: "skipped", field: null });
  });
  return out;
}

/** Why a step was never dispatched: one clause, and the places of its causes. */
export interface Unreached {
  /** After "never dispatched …: ". */
  readonly why: string;
  /** The routes (or the skip_if) no run took, as related places of the finding. */
  readonly causes: readonly RelatedPlace[];
}

/** Why `step` of `flow` was never dispatched. */
export function whyUnreached(flow: FlowIR, step: StepIR, coverage: Coverage): Unreached {
  const key = (s: StepIR) => stepKey(flow.name, s.id);
  const place = (s: StepIR, field: string | null, message: string): RelatedPlace => ({
    flow: flow.name,
    step: s.id,
    anchor: field === null ? { kind: "step" } : { kind: "field", key: field },
    message,
  });
  if (coverage.skipped.has(key(step)))
    return {
      why: "its skip_if held on every run that reached it",
      causes: [place(step, "skip_if", "this skip_if held on every run")],
    };
  const ended = { why: `every run ended before it (${runEndings(flow, coverage)})`, causes: [] };
  if (step.index === 0) return ended;
  const reasons: string[] = [];
  const causes: RelatedPlace[] = [];
  for (const r of routesInto(flow, step)) {
    const before = reasons.length;
    const from = `'${r.from.id}'`;
    const via = r.field === null ? "" : ` (${r.field})`;
    if (r.when === "skipped") {
      if (!coverage.skipped.has(key(r.from))) reasons.push(`${from}'s skip_if never held`);
    } else if (!coverage.dispatched.has(key(r.from))) {
      reasons.push(`${from}${via} never ran either`);
    } else {
      switch (r.when) {
        case "passes":
          if (!coverage.accepted.has(key(r.from)))
            reasons.push(`${from}${via} never passed${ranOutAt(flow, r.from, coverage)}`);
          break;
        case "exhausted":
          if (!coverage.exhausted.has(key(r.from)))
            reasons.push(
              `${from}${via} never failed on its last attempt: no conforming result failed its checks`,
            );
          break;
        default:
          if (!coverage.gateOutcomes.has(`${key(r.from)}/${r.when}`)) {
            const policy =
              r.from.policy === "flag" || r.from.policy === "skip"
                ? ` (its policy: ${r.from.policy} approves it without a person)`
                : "";
            reasons.push(`gate ${from}${via} was never resolved ${r.when}${policy}`);
          }
          break;
      }
    }
    if (reasons.length > before)
      causes.push(place(r.from, r.when === "skipped" ? "skip_if" : r.field, "no run took this route"));
  }
  if (reasons.length === 0) return ended;
  return { why: `no route into it was taken: ${reasons.join("; ")}`, causes };
}

/**
 * Where runs ran out of budget at `step` (docs/reference/runtime.md §11.4): the clause saying so, for
 * a step that never passed because the flow was stopped there (a cap reached before its result
 * was accepted); else "".
 */
function ranOutAt(flow: FlowIR, step: StepIR, coverage: Coverage): string {
  const n = coverage.endings.get(flow.name)?.get(`budget_exhausted|${step.id}`) ?? 0;
  return n === 0 ? "" : ` (the flow's budget ran out there on ${n} run${n === 1 ? "" : "s"})`;
}

/** How the runs of a flow ended, most frequent first: `runs ended: 3 completed, 2 ended with retries exhausted at 'fix'`. */
export function runEndings(flow: FlowIR, coverage: Coverage): string {
  const ends = coverage.endings.get(flow.name);
  if (ends === undefined || ends.size === 0) return "no run of the flow was made";
  const parts = [...ends]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 4)
    .map(([k, n]) => {
      const [end, step] = k.split("|") as [string, string];
      const at = step === "" ? "" : ` at '${step}'`;
      return `${n} ${END_WORDS[end] ?? end}${at}`;
    });
  return `runs ended: ${parts.join(", ")}`;
}

const END_WORDS: Readonly<Record<string, string>> = {
  complete: "completed",
  killed: "killed",
  exhausted: "ended with retries exhausted",
  budget_exhausted: "ran out of budget",
  stuck: "got stuck",
  internal: "failed in the interpreter",
  loop: "looped",
  truncated: "hit the call limit",
  revisit: "came back to a state explored already",
};
