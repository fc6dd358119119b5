// The checker's step-kind descriptors (checker/kinds/<kind>.ts): what the registry promises the
// code that asks it instead of naming kinds. Own keys belong to one kind each (completion hides a
// kind's own keys on every other kind), the keys an ONLY-KEY rule finds are the kind's own keys,
// the IR parts are distinct, and the member lists are the keys SPEC-MEMBER-DUPLICATE-ID reads.
import { describe, expect, it } from "vitest";
import { STEP_KINDS } from "../../../checker/base/step-kinds";
import { checkSpec } from "../../../checker/check-spec";
import { CHECKER_KINDS } from "../../../checker/kinds/index";
import type { IdStep } from "../../../checker/kinds/types";

/** An inline step carrying a valid value for every key another kind owns. */
const FOREIGN = [
  'version: "0.3"',
  "contracts:",
  "  C:",
  "    x: {type: string}",
  "flows:",
  "  main:",
  "    input: {tasks: {type: array}}",
  "    steps:",
  "      - id: s",
  "        intent: Do it",
  "        runs: 3",
  '        agree_on: "result.x"',
  "        threshold: 2",
  "        candidates: 3",
  "        debaters: [{id: a}, {id: b}]",
  "        rounds: 2",
  "        argument_contract: C",
  '        converge: "True"',
  "        synthesis: {intent: Decide}",
  '        source: "$.input.tasks"',
  "        isolation: none",
  "        require: all",
  "        merge: manual",
  "        task_timeout: 60",
  "        max_concurrent: 2",
  "        member_contract: C",
  '        validate: "True"',
  '        intent_template: "Do {task.id}"',
  '        stages: [{intent_template: "Do {item}"}]',
  "",
].join("\n");

function foreignStep(): IdStep {
  const model = checkSpec(FOREIGN).model;
  const step = model?.flows[0]?.steps[0];
  if (step === undefined || step.id === null) throw new Error("the spec has no step");
  return step as IdStep;
}

describe("checker/kinds", () => {
  it("gives each own key to one kind only, and never hides a kind's own key from it", () => {
    const owners = new Map<string, string[]>();
    for (const kind of STEP_KINDS) {
      for (const key of CHECKER_KINDS[kind].ownKeys) owners.set(key, [...(owners.get(key) ?? []), kind]);
      for (const key of CHECKER_KINDS[kind].notOffered) {
        expect(CHECKER_KINDS[kind].ownKeys, `${kind} hides ${key}`).not.toContain(key);
      }
    }
    expect([...owners].filter(([, kinds]) => kinds.length > 1)).toEqual([]);
    expect(owners.size).toBe(24);
  });

  it("finds on a step of another kind exactly the kind's own keys its ONLY-KEY rule reports", () => {
    const step = foreignStep();
    const found = Object.fromEntries(
      STEP_KINDS.map((k) => [k, CHECKER_KINDS[k].exclusiveKeys?.found(step).map((f) => f.key) ?? null]),
    );
    expect(found).toEqual({
      function: null,
      gate: null,
      inline: null,
      flow: null,
      judge: null,
      decompose: null,
      parallel_dispatch: [
        "source",
        "isolation",
        "require",
        "merge",
        "task_timeout",
        "max_concurrent",
        "member_contract",
        "validate",
        "intent_template",
      ],
      pipeline: ["stages"],
      quorum: ["runs", "agree_on", "threshold"],
      race: ["candidates"],
      debate: ["debaters", "rounds", "argument_contract", "converge", "synthesis"],
    });
    for (const kind of STEP_KINDS) {
      for (const key of found[kind] ?? []) expect(CHECKER_KINDS[kind].ownKeys).toContain(key);
    }
  });

  it("builds each kind-specific IR part from one kind, and reads members from one list key per member kind", () => {
    const parts = STEP_KINDS.map((k) => CHECKER_KINDS[k].irPart).filter((p) => p !== null);
    expect(new Set(parts).size).toBe(parts.length);
    expect(STEP_KINDS.filter((k) => CHECKER_KINDS[k].memberList !== null)).toEqual(["race", "debate"]);
  });

  it("requires keys of the kinds that cannot run without them, each under a code of its own", () => {
    const codes = STEP_KINDS.flatMap((k) => {
      const rule = CHECKER_KINDS[k].requiredKeys?.rule;
      return rule === undefined ? [] : [rule.code];
    });
    expect(codes).toEqual([
      "SPEC-DECOMPOSE-MISSING-KEY",
      "SPEC-PARALLEL-MISSING-KEY",
      "SPEC-PIPELINE-MISSING-KEY",
      "SPEC-QUORUM-MISSING-KEY",
      "SPEC-RACE-MISSING-KEY",
      "SPEC-DEBATE-MISSING-KEY",
    ]);
  });
});
