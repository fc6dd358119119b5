// The solver keeps what does not depend on the context: a step's answer when its ensures read no
// `$` paths, each candidate's outcomes of the ensures that read none, and an iteration's exiting
// and raising reports for the same accumulator names when its expressions read none. What it answers in a
// context must be what a fresh solver answers there, whatever it was asked before. A solver made
// for another seed with `withSeed` shares what no seed changes (the derived candidates and their
// context-free outcomes): it must answer as a fresh solver of its seed, whatever its sibling was asked.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Solver } from "../../fuzzer/solver";
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

function answer(
  agent: ReturnType<typeof agentFor>,
  ask: Ask,
  step: string,
  limit: string,
  solver: Solver = agent.solver,
): unknown {
  const s = agent.step(step);
  const p = paths(limit);
  const [what, streak] = ask.split("/");
  const names = iterationNames(Number(streak));
  if (what === "passing") return solver.passing(s, p);
  if (what === "failing") return solver.failing(s, p);
  if (what === "raising") return solver.raising(s, p);
  if (what === "exiting") return solver.exiting(s, names, p);
  return solver.raisingReport(s, names, p);
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

describe("a solver made for another seed from a session's solver", () => {
  const SIBLING_SEED = 0;
  const fresh = new Map<string, unknown>();
  for (const ask of ASKS)
    for (const step of STEPS)
      for (const limit of LIMITS)
        fresh.set(`${ask}/${step}/${limit}`, answer(agentFor(SPEC, SIBLING_SEED), ask, step, limit));

  it("has the candidates of a fresh solver of its seed, the derived ones shared with its sibling", () => {
    const agent = agentFor(SPEC);
    const sibling = agent.solver.withSeed(SIBLING_SEED);
    const other = agentFor(SPEC, SIBLING_SEED);
    for (const id of STEPS) {
      const step = agent.step(id);
      const derived = sibling.derivedCount(step);
      expect(derived).toBeGreaterThan(0);
      expect(sibling.conforming(step).map((c) => c.plain)).toEqual(
        other.solver.conforming(step).map((c) => c.plain),
      );
      const own = agent.solver.conforming(step);
      const shared = sibling.conforming(step).slice(0, derived);
      for (const [i, c] of shared.entries()) expect(c).toBe(own[i]);
      // The drawn ones are its seed's, not its sibling's.
      expect(
        sibling
          .conforming(step)
          .slice(derived)
          .map((c) => c.plain),
      ).not.toEqual(own.slice(derived).map((c) => c.plain));
    }
  });

  it("answers as a fresh solver of its seed, whatever either of them was asked before", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.boolean(),
            fc.constantFrom(...ASKS),
            fc.constantFrom(...STEPS),
            fc.constantFrom(...LIMITS),
          ),
          { minLength: 1, maxLength: 10 },
        ),
        (questions) => {
          const agent = agentFor(SPEC);
          const sibling = agent.solver.withSeed(SIBLING_SEED);
          for (const [toSibling, ask, step, limit] of questions) {
            if (toSibling)
              expect(answer(agent, ask, step, limit, sibling)).toEqual(fresh.get(`${ask}/${step}/${limit}`));
            else answer(agent, ask, step, limit);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
