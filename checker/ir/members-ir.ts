// The IR of stratumc's race and debate steps (docs/design/concurrency-constructs.md §3,
// docs/design/concurrency-constructs.md §5): the members with the step's agent and intent applied where
// they have none, and a debate's rounds, contract, converge expression and synthesis with its
// defaults, and the default timeout of the member tasks.
import { type MemberDecl, memberDecls } from "../model/members";
import type { StepDecl } from "../model/types";
import { DEFAULT_SYNTHESIS_RETRIES } from "../schema/spec-schema-members";
import { DEFAULT_TASK_TIMEOUT } from "../schema/spec-schema-parallel";
import type { DebateIR, ExpressionIR, MemberIR, RaceIR, SynthesisIR } from "./types";

/** `candidates: N` gives c1 … cN; a list gives its entries. Null only for a spec with errors. */
export function raceIR(step: StepDecl): RaceIR | null {
  const count = step.integer("candidates")?.value;
  if (count !== undefined) {
    const ids = Array.from({ length: count }, (_, i) => `c${i + 1}`);
    return {
      candidates: ids.map((id) => defaultsApplied(step, { id, agent: null, intent: null })),
      taskTimeout: DEFAULT_TASK_TIMEOUT,
    };
  }
  const written = memberDecls(step, "candidates");
  return written.length === 0
    ? null
    : { candidates: written.map((m) => defaultsApplied(step, m)), taskTimeout: DEFAULT_TASK_TIMEOUT };
}

/** Null only for a spec with errors (no IR is built for one). */
export function debateIR(step: StepDecl, converge: ExpressionIR | null): DebateIR | null {
  const debaters = memberDecls(step, "debaters");
  const rounds = step.integer("rounds")?.value;
  const synthesis = synthesisIR(step);
  if (debaters.length === 0 || rounds === undefined || synthesis === null) return null;
  return {
    debaters: debaters.map((m) => defaultsApplied(step, m)),
    rounds,
    argumentContract: step.string("argument_contract")?.value || null,
    converge,
    synthesis,
    taskTimeout: DEFAULT_TASK_TIMEOUT,
  };
}

function defaultsApplied(step: StepDecl, member: Pick<MemberDecl, "id" | "agent" | "intent">): MemberIR {
  return {
    id: member.id,
    agent: member.agent ?? step.string("agent")?.value ?? null,
    intent: member.intent ?? step.string("intent")?.value ?? "",
  };
}

function synthesisIR(step: StepDecl): SynthesisIR | null {
  const map = step.map("synthesis")?.value;
  if (map === undefined) return null;
  const text = (key: string): string | null => {
    const v = map.get(key)?.value;
    return v?.kind === "scalar" && typeof v.value === "string" ? v.value : null;
  };
  const retries = map.get("retries")?.value;
  const intent = text("intent");
  if (intent === null) return null;
  return {
    agent: text("agent") ?? step.string("agent")?.value ?? null,
    intent,
    outputContract: text("output_contract") || null,
    retries:
      retries?.kind === "scalar" && typeof retries.value === "number"
        ? Math.trunc(retries.value)
        : DEFAULT_SYNTHESIS_RETRIES,
  };
}
