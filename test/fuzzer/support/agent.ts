// A checked spec with its fuzzer values (shapes, solver) for the agent's unit tests.
import { expect } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import type { CheckedSpec, StepIR } from "../../../checker/index";
import { virtualFiles } from "../../../fuzzer/engine";
import { Solver } from "../../../fuzzer/solver";
import { type FuzzTarget, fuzzTarget } from "../../../fuzzer/target";
import { Shapes } from "../../../fuzzer/values/shapes";
import type { PathSource } from "../../../interpreter/index";

export interface Agent {
  readonly target: FuzzTarget;
  readonly spec: CheckedSpec;
  readonly shapes: Shapes;
  readonly solver: Solver;
  step(id: string, flow?: string): StepIR;
}

export function agentFor(text: string, seed = 42): Agent {
  const result = checkSpec(text);
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const target = fuzzTarget(result);
  if (target === null) throw new Error("spec does not check");
  const shapes = new Shapes(target.spec, target.literals);
  const solver = new Solver(target.spec, shapes, seed, virtualFiles(target.literals.strings));
  return {
    target,
    spec: target.spec,
    shapes,
    solver,
    step(id, flow = "main") {
      const step = target.spec.flows.get(flow)?.stepById.get(id);
      if (step === undefined) throw new Error(`no step ${flow}/${id}`);
      return step;
    },
  };
}

/** A context in which no `$` path resolves (the expressions under test read only `result`). */
export const NO_PATHS: PathSource = { input: () => undefined, stepOutput: () => undefined };

/** A one-step spec: `fields` is the contract's YAML body, `ensure` the step's ensure list. */
export function oneStep(fields: string, ensure: readonly string[], extra = ""): string {
  const contract = fields
    .trim()
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");
  const ensures = ensure.map((e) => `          - ${JSON.stringify(e)}`).join("\n");
  return `version: "0.2"
contracts:
  Out:
${contract}
flows:
  main:
    input: {}
    steps:
      - id: s
        intent: "Do it"
        inputs: {}
        output_contract: Out
${ensure.length > 0 ? `        ensure:\n${ensures}\n` : ""}${extra}`;
}
