// The fuzzer's agent on the consumer path of stratumc's member steps (docs/reference/runtime.md §23.13 and
// docs/reference/runtime.md §23.14): it "runs" a quorum's runs or a race's candidates itself and reports
// them with stratum_parallel_done. Each member passes (a result aimed at the step's checks), fails
// them (a result aimed against its ensures), raises one of them, or ends `failed`; a race is
// reported in one batch or in two (so `race_pending`, a winner in a partial batch and cancellation
// are all reached). Exhaustive mode enumerates: every member passing, every member failing, the
// last one failing, and (when the step has ensures) the first one's result aimed at making an
// ensure raise.
import type { Decider } from "../decider";
import type { Plain } from "../session";
import type { ResultAim } from "./kind";

type Outcomes = "all-pass" | "all-fail" | "last-fails" | "first-raises" | "mixed";

export interface MemberPlan {
  /** The batches to report, in order (a quorum: one; a race: one or two). */
  readonly batches: readonly Plain[][];
  /** Each member's result, by id (for the step output the driver notes down). */
  readonly results: ReadonlyMap<string, unknown>;
  /** `pass` when every member's result was aimed at passing. */
  readonly aim: "pass" | "other";
}

/** `twoBatches`: the kind's agent may report the members in two batches, the last ones first. */
export function memberPlan(
  ids: readonly string[],
  twoBatches: boolean,
  hasEnsure: boolean,
  decider: Decider,
  resultFor: (aim: ResultAim) => unknown,
): MemberPlan {
  const outcomes = decider.choose<Outcomes>([
    { name: "all-pass", weight: 55, exhaustive: true },
    { name: "all-fail", weight: 12, exhaustive: true },
    { name: "last-fails", weight: ids.length > 1 ? 18 : 0, exhaustive: ids.length > 1 },
    { name: "first-raises", weight: hasEnsure ? 8 : 0, exhaustive: hasEnsure },
    { name: "mixed", weight: ids.length > 1 ? 15 : 0, exhaustive: false },
  ]);
  const aim = (i: number): ResultAim => {
    if (outcomes === "all-pass") return "pass";
    if (outcomes === "all-fail") return "fail";
    if (outcomes === "last-fails") return i < ids.length - 1 ? "pass" : "fail";
    if (outcomes === "first-raises") return i === 0 ? "raise" : "pass";
    return decider.choose<"pass" | "fail">([
      { name: "pass", weight: 50, exhaustive: false },
      { name: "fail", weight: 50, exhaustive: false },
    ]);
  };
  const results = new Map<string, unknown>();
  const reports: Plain[] = ids.map((task_id, i) => {
    const aimed = aim(i);
    const ended =
      aimed !== "fail"
        ? "complete"
        : decider.choose<"complete" | "failed">([
            { name: "complete", weight: 70, exhaustive: true },
            { name: "failed", weight: 30, exhaustive: false },
          ]);
    if (ended === "failed") return { task_id, status: "failed", error: "member failed (stratumc fuzz)" };
    const result = resultFor(aimed);
    results.set(task_id, result);
    return { task_id, status: "complete", result };
  });
  // A race's agent may report the last members first, in a batch of their own.
  const split =
    twoBatches && reports.length > 1
      ? decider.choose<"one-batch" | "two-batches">([
          { name: "one-batch", weight: 50, exhaustive: true },
          { name: "two-batches", weight: 50, exhaustive: true },
        ])
      : "one-batch";
  const half = Math.ceil(reports.length / 2);
  const batches = split === "one-batch" ? [reports] : [reports.slice(half), reports.slice(0, half)];
  return { batches, results, aim: outcomes === "all-pass" ? "pass" : "other" };
}
