// The solver keeps what does not depend on the context: a step's answer when its ensures read no
// `$` paths, each candidate's outcomes of the ensures that read none, and an iteration's exiting
// and raising reports for the same accumulator names when its expressions read none. What it answers in a
// context must be what a fresh solver answers there, whatever it was asked before.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PathSource } from "../../interpreter/index";
import type { PyValue } from "../../stdlib/index";
import { agentFor } from "./support/agent";

const SPEC = `version: "0.2"
contracts:
  Out:
    n: { type: integer }
    s: { type: string }
flows:
  main:
    input:
      limit: { type: string }
    steps:
      - id: mixed
        intent: "Count"
        inputs: {}
        output_contract: Out
        ensure:
          - "result.n > 0"
          - "int(result.s) >= 0"
          - "result.n < int($.input.limit)"
      - id: fixed
        intent: "Count again"
        inputs: {}
        output_contract: Out
        ensure:
          - "result.n > 3"
          - "int(result.s) >= 0"
      - id: loop
        intent: "Count until done"
        inputs: {}
        output_contract: Out
        max_iterations: 5
        accumulate: "[result.n] if result.n > 2 else int(result.s)"
        exit_criterion: "int(result.s) > dry_streak * 10 and result.n > 2"
      - id: pathloop
        intent: "Count until the limit"
        inputs: {}
        output_contract: Out
        max_iterations: 5
        accumulate: "[result.n]"
        exit_criterion: "result.n >= int($.input.limit) - dry_streak"
`;

/** Contexts: limits that pass some candidates, none, and one that makes the path ensure raise. */
const LIMITS = ["5", "1000", "1", "x"];

function paths(limit: string): PathSource {
  return { input: (name) => (name === "limit" ? limit : undefined), stepOutput: () => undefined };
}

type Ask =
  | "passing"
  | "failing"
  | "raising"
  | "exiting/0"
  | "exiting/1"
  | "raisingReport/0"
  | "raisingReport/3";
const ASKS: readonly Ask[] = [
  "passing",
  "failing",
  "raising",
  "exiting/0",
  "exiting/1",
  "raisingReport/0",
  "raisingReport/3",
];
const STEPS = ["mixed", "fixed", "loop", "pathloop"];

/** The names the driver binds for an iteration's report. */
function iterationNames(dryStreak: number): Map<string, PyValue> {
  return new Map<string, PyValue>([
    ["accumulator", []],
    ["accumulated_count", 0],
    ["new_count", null],
    ["dry_streak", dryStreak],
  ]);
}

function answer(agent: ReturnType<typeof agentFor>, ask: Ask, step: string, limit: string): unknown {
  const s = agent.step(step);
  const p = paths(limit);
  const [what, streak] = ask.split("/");
  const names = iterationNames(Number(streak));
  if (what === "passing") return agent.solver.passing(s, p);
  if (what === "failing") return agent.solver.failing(s, p);
  if (what === "raising") return agent.solver.raising(s, p);
  if (what === "exiting") return agent.solver.exiting(s, names, p);
  return agent.solver.raisingReport(s, names, p);
}

describe("the solver's answers in a context", () => {
  // Each question answered by a solver that was asked nothing before.
  const fresh = new Map<string, unknown>();
  for (const ask of ASKS)
    for (const step of STEPS)
      for (const limit of LIMITS)
        fresh.set(`${ask}/${step}/${limit}`, answer(agentFor(SPEC), ask, step, limit));

  it("the contexts tell the answers apart (the path ensure matters)", () => {
    const passing = LIMITS.map((l) => JSON.stringify(fresh.get(`passing/mixed/${l}`)));
    expect(new Set(passing).size).toBeGreaterThan(1);
    expect(fresh.get("raising/mixed/x")).not.toBeNull();
    expect(fresh.get("passing/fixed/5")).toEqual(fresh.get("passing/fixed/x"));
    const exits = LIMITS.map((l) => JSON.stringify(fresh.get(`exiting/0/pathloop/${l}`)));
    expect(new Set(exits).size).toBeGreaterThan(1);
    expect(JSON.stringify(fresh.get("exiting/0/loop/5"))).not.toEqual(
      JSON.stringify(fresh.get("exiting/1/loop/5")),
    );
  });

  it("are those of a fresh solver, whatever it answered before", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...ASKS), fc.constantFrom(...STEPS), fc.constantFrom(...LIMITS)), {
          minLength: 1,
          maxLength: 8,
        }),
        (questions) => {
          const agent = agentFor(SPEC);
          for (const [ask, step, limit] of questions) {
            expect(answer(agent, ask, step, limit)).toEqual(fresh.get(`${ask}/${step}/${limit}`));
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
