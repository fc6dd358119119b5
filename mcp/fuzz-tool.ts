// `stratum_fuzz`: an agent fuzzes the plan it just wrote before running it. The spec is
// explored on a private in-memory engine (the server's flows are never touched), in a job off the
// server's event loop that is stopped at its deadline (fuzz-jobs.ts); the answer lists the
// findings, each located in the spec and, where something happened, with the exact tool calls that
// reproduce it.
import { z } from "zod";
import type { Response } from "../interpreter/index";
import { fuzzJobProgress } from "./fuzz-progress";
import { ANSWERS } from "./output-schemas";
import { READS } from "./tool-annotations";
import type { ToolDefinition } from "./tools";

const DEFAULT_RUNS = 60;
const DEFAULT_TIME_BUDGET_MS = 5_000;
const MAX_TIME_BUDGET_MS = 60_000;

export const FUZZ_TOOL: ToolDefinition = {
  name: "stratum_fuzz",
  title: "Fuzz a spec",
  annotations: READS,
  answers: ANSWERS.stratum_fuzz,
  description:
    "Explore what a spec does at run time before running it: the fuzzer plays the agent (results generated from each step's contract, boundary values included), the human (gate decisions) and the caller (inputs), and reports what fails on SOME run — an ensure or skip_if that raises, an input that cannot be resolved, a flow output that breaks its contract, a loop nothing bounds, a step never reached, an ensure nothing satisfies. Each finding has the spec line and, where a run showed it, the exact stratum_* calls that reproduce it. The job stops at time_budget_ms: `stopped_by_deadline` and `not_explored` say what the budget cut short, and a job that could not finish its report in time answers `deadline_exceeded` with what it explored. Fix the errors, then call stratum_plan.",
  schema: z.object({
    spec: z.string().describe("The spec as YAML text."),
    flow: z.string().optional().describe("Only this flow (default: every flow)."),
    runs: z.number().int().min(1).max(10_000).default(DEFAULT_RUNS).describe("Random runs per flow."),
    seed: z.number().int().default(42).describe("The same seed gives the same findings."),
    time_budget_ms: z
      .number()
      .int()
      .min(1)
      .max(MAX_TIME_BUDGET_MS)
      .default(DEFAULT_TIME_BUDGET_MS)
      .describe("Stop exploring after this many milliseconds (the check of the spec included)."),
  }),
  call(_api, a, context): Promise<Response> {
    const flow = a.plain.flow as string | undefined;
    const runs = a.plain.runs as number;
    const progress = context.progress;
    return context.fuzz.run(
      {
        spec: a.plain.spec as string,
        flow: flow ?? null,
        runs,
        seed: a.plain.seed as number,
        timeBudgetMs: a.plain.time_budget_ms as number,
      },
      {
        // The client's cancel terminates the job's worker at once.
        ...(context.signal === undefined ? {} : { signal: context.signal }),
        ...(progress === undefined ? {} : { onProgress: (p) => progress.report(fuzzJobProgress(p, runs)) }),
      },
    );
  },
};
