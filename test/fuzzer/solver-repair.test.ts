// The solver's search for a passing result: the answer for a child flow's last step under its
// parent's checks is kept when neither reads `$` paths, and must be what a fresh solver answers,
// whatever it was asked before; the field-wise repair tries each value of a field once per result
// it improves on (a value tried again scores the same).
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import type { PathSource } from "../../interpreter/index";
import { type Agent, agentFor, NO_PATHS, oneStep } from "./support/agent";

const SPEC = `version: "0.2"
contracts:
  Out:
    n: { type: integer }
    s: { type: string }
flows:
  child:
    input: {}
    output: Out
    steps:
      - id: first
        intent: "Start"
        inputs: {}
        output_contract: Out
      - id: last
        intent: "Finish"
        inputs: {}
        output_contract: Out
        ensure:
          - "result.n > 0"
  main:
    input:
      limit: { type: string }
    steps:
      - id: fixed
        flow: child
        inputs: {}
        output_contract: Out
        ensure:
          - "result.n > 3"
          - "len(result.s) > 1"
      - id: contextual
        flow: child
        inputs: {}
        output_contract: Out
        ensure:
          - "result.n < int($.input.limit)"
`;

const LIMITS = ["5", "1000", "2", "x"];
const PARENTS = ["fixed", "contextual"];
const OFFSETS = [0, 1, 2, 7];

function paths(limit: string): PathSource {
  return { input: (name) => (name === "limit" ? limit : undefined), stepOutput: () => undefined };
}

function answer(agent: Agent, parent: string, limit: string, offset: number): unknown {
  const goal = agent.solver.parentAccepts(agent.step(parent), paths(limit));
  return agent.solver.passing(agent.step("last", "child"), NO_PATHS, offset, goal);
}

describe("a child flow's last step under its parent's checks", () => {
  const fresh = new Map<string, unknown>();
  for (const parent of PARENTS)
    for (const limit of LIMITS)
      for (const offset of OFFSETS)
        fresh.set(`${parent}/${limit}/${offset}`, answer(agentFor(SPEC), parent, limit, offset));

  it("the parent's checks and their context tell the answers apart", () => {
    const contextual = LIMITS.map((l) => JSON.stringify(fresh.get(`contextual/${l}/0`)));
    expect(new Set(contextual).size).toBeGreaterThan(1);
    const fixed = fresh.get("fixed/5/0") as { n: number; s: string };
    expect(fixed.n).toBeGreaterThan(3);
    expect(fixed.s.length).toBeGreaterThan(1);
  });

  it("is what a fresh solver answers, whatever it answered before", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.constantFrom(...PARENTS), fc.constantFrom(...LIMITS), fc.constantFrom(...OFFSETS)),
          { minLength: 1, maxLength: 10 },
        ),
        (questions) => {
          const agent = agentFor(SPEC);
          for (const [parent, limit, offset] of questions) {
            expect(answer(agent, parent, limit, offset)).toEqual(fresh.get(`${parent}/${limit}/${offset}`));
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it("is searched once for a parent whose checks read no paths", () => {
    const agent = agentFor(SPEC);
    const first = answer(agent, "fixed", "5", 1);
    const conforms = vi.spyOn(agent.shapes, "conforms");
    expect(answer(agent, "fixed", "1000", 1)).toEqual(first);
    expect(conforms).not.toHaveBeenCalled();
    answer(agent, "contextual", "5", 1);
    expect(conforms).toHaveBeenCalled();
  });
});

describe("the field-wise repair", () => {
  it("tries each value of a field once while the result it repairs stays the same", () => {
    // No result passes (the ensure contradicts itself): the repair never improves, so it tries each
    // distinct value of each field once, whatever the number of donors.
    const agent = agentFor(
      oneStep("flag: { type: boolean }\nkind: { type: string, values: [a, b] }", [
        "result.flag and not result.flag",
      ]),
    );
    const step = agent.step("s");
    expect(agent.solver.conforming(step).length).toBeGreaterThan(20);
    const conforms = vi.spyOn(agent.shapes, "conforms");
    expect(agent.solver.passing(step, NO_PATHS)).toBeNull();
    expect(conforms.mock.calls.length).toBeGreaterThan(0);
    expect(conforms.mock.calls.length).toBeLessThanOrEqual(4);
  });

  it("still repairs field by field when donors repeat values", () => {
    const agent = agentFor(
      oneStep("flag: { type: boolean }\nkind: { type: string, values: [a, b] }\nn: { type: integer }", [
        "result.flag",
        "result.kind == 'b'",
        "result.n == 7",
      ]),
    );
    expect(agent.solver.passing(agent.step("s"), NO_PATHS)).toMatchObject({ flag: true, kind: "b", n: 7 });
  });
});
