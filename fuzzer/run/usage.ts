// The agent's `usage` on stratum_step_done (docs/reference/runtime.md §11.4): in a flow whose budget
// caps dollars or tokens, the agent sometimes says what a step cost, a little or enough to reach a
// cap at once, so runs that end `budget_exhausted` are explored. Only `usd` and `max_tokens` can run
// out on the consumer path (the agent reports every result); `ms` and `max_agent_dispatches` count
// only work the server dispatches itself, so a flow with only those gets no usage.
import type { BudgetIR, CheckedSpec, FlowIR, StepIR } from "../../checker/index";
import { BUILT_IN_PRICING } from "../../interpreter/index";
import type { Decider, Option } from "./decider";

/** The model a usage report names when the step's function names none the pricing table knows. */
export const DEFAULT_USAGE_MODEL = "claude-sonnet-4-6";

/** A usage that costs little: 1,000 tokens in, 500 out. */
const SMALL = { input: 1_000, output: 500 } as const;

type UsageKind = "none" | "some" | "exhaust";

const OPTIONS: readonly Option<UsageKind>[] = [
  { name: "none", weight: 70, exhaustive: true },
  { name: "some", weight: 20, exhaustive: false },
  { name: "exhaust", weight: 10, exhaustive: true },
];

export interface Usage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly model: string;
}

/** Whether the agent can run `budget` out by reporting usage (a `usd` or `max_tokens` cap). */
export function agentCanExhaust(budget: BudgetIR | null): boolean {
  return budget !== null && (budget.usd !== null || budget.max_tokens !== null);
}

/** The model the step's function names, if the pricing table knows it; else the default. */
function modelOf(spec: CheckedSpec, step: StepIR): string {
  const fn = step.function === null ? undefined : spec.functions.get(step.function);
  const model = fn?.model ?? null;
  const base = model === null ? "" : (model.split("/")[0] ?? "");
  return BUILT_IN_PRICING.has(base) ? (model as string) : DEFAULT_USAGE_MODEL;
}

/**
 * Output tokens that reach one of the budget's caps by themselves (with the built-in prices): the
 * token cap, or the dollars cap divided by the model's output rate, plus one token so that
 * floating-point rounding cannot leave the charge a hair under the cap.
 */
export function tokensToExhaust(budget: BudgetIR, model: string): number {
  const options: number[] = [];
  if (budget.max_tokens !== null) options.push(Math.max(0, Math.ceil(budget.max_tokens)));
  const rate = BUILT_IN_PRICING.get(model.split("/")[0] ?? "")?.output ?? 0;
  if (budget.usd !== null && rate > 0)
    options.push(Math.max(0, Math.ceil((budget.usd * 1_000_000) / rate)) + 1);
  return options.length === 0 ? 0 : Math.min(...options);
}

/** The usage to report with a step's result, or null (none: the flow's budget cannot run out). */
export function chooseUsage(spec: CheckedSpec, flow: FlowIR, step: StepIR, decider: Decider): Usage | null {
  const budget = flow.budget;
  if (budget === null || !agentCanExhaust(budget)) return null;
  const kind = decider.choose(OPTIONS);
  if (kind === "none") return null;
  const model = modelOf(spec, step);
  if (kind === "some") return { input_tokens: SMALL.input, output_tokens: SMALL.output, model };
  return { input_tokens: 0, output_tokens: tokensToExhaust(budget, model), model };
}
