// `stratum_fuzz`: an agent fuzzes the plan it just wrote before running it. The spec is
// explored on a private in-memory engine (the server's flows are never touched); the answer lists
// the findings, each located in the spec and, where something happened, with the exact tool calls
// that reproduce it.
import { z } from "zod";
import { findingJson, fuzzSpec, UnknownFlowError } from "../fuzzer/index";
import type { Response, Wire } from "../interpreter/index";
import type { ToolDefinition } from "./tools";

const DEFAULT_RUNS = 60;
const DEFAULT_TIME_BUDGET_MS = 5_000;
const MAX_TIME_BUDGET_MS = 60_000;

export const FUZZ_TOOL: ToolDefinition = {
  name: "stratum_fuzz",
  description:
    "Explore what a spec does at run time before running it: the fuzzer plays the agent (results generated from each step's contract, boundary values included), the human (gate decisions) and the caller (inputs), and reports what fails on SOME run — an ensure or skip_if that raises, an input that cannot be resolved, a flow output that breaks its contract, a loop nothing bounds, a step never reached, an ensure nothing satisfies. Each finding has the spec line and, where a run showed it, the exact stratum_* calls that reproduce it. Fix the errors, then call stratum_plan.",
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
      .describe("Stop exploring after this many milliseconds."),
  }),
  async call(_api, a): Promise<Response> {
    const flow = a.plain.flow as string | undefined;
    try {
      const { check, report } = await fuzzSpec(a.plain.spec as string, {
        seed: a.plain.seed as number,
        runs: a.plain.runs as number,
        timeBudgetMs: a.plain.time_budget_ms as number,
        ...(flow === undefined ? {} : { flow }),
      });
      if (report === null) {
        return {
          status: "error",
          error_type: "invalid_spec",
          message: `The spec has ${check.errors.length} error(s): fix them first (stratum_validate lists them).`,
          errors: check.errors as unknown as Wire,
        };
      }
      const errors = report.findings.filter((f) => f.severity === "error").length;
      return {
        status: "fuzzed",
        seed: report.seed,
        runs: report.runs,
        paths: report.paths,
        exhaustive: report.exhaustive,
        errors,
        warnings: report.findings.length - errors,
        soundness: report.soundness as unknown as Wire,
        findings: report.findings.map((f) => findingJson(f, f)) as unknown as Wire,
      };
    } catch (e) {
      if (e instanceof UnknownFlowError)
        return { status: "error", error_type: "flow_not_found", message: e.message };
      throw e;
    }
  },
};
