// Debate steps in the checker (stratumc's extension, docs/reference/language.md §6.7): the key rules with
// their exact ranges, converge typed with round / history / round_number against the argument
// contract, the result type R(s) (the synthesis contract) and the IR.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../../checker/check-spec";

function debateSpec(step: string, use = "$.steps.design.output.choice"): string {
  return [
    'version: "0.3"',
    "contracts:",
    "  Argument:",
    "    position: {type: string}",
    "    points: {type: array, items: {type: string}}",
    "  Decision:",
    "    choice: {type: string}",
    "flows:",
    "  main:",
    "    input: {}",
    "    steps:",
    "      - id: design",
    "        type: debate",
    "        intent: Argue your side",
    "        debaters: [{id: pro, agent: claude}, {id: con, intent: Argue against}]",
    "        rounds: 3",
    ...step.split("\n").map((l) => `        ${l}`),
    "      - id: use",
    '        intent: "Use {x}"',
    `        inputs: {x: ${use}}`,
    "        depends_on: [design]",
    "",
  ].join("\n");
}

const SYNTHESIS = "synthesis: {intent: Decide, output_contract: Decision}";

function diagnostics(text: string): string[] {
  return checkSpec(text).diagnostics.map(
    (d) => `${d.code} ${d.line}:${d.column}-${d.end_line}:${d.end_column} ${d.message}`,
  );
}

describe("debate steps", () => {
  it("a complete step is valid; its IR has the debaters with defaults, the converge and the synthesis", () => {
    const converge = 'converge: "all(a.position == round[0].position for a in round) and round_number >= 2"';
    const checked = checkSpec(debateSpec(`argument_contract: Argument\n${converge}\n${SYNTHESIS}`));
    expect(checked.diagnostics).toEqual([]);
    const step = checked.ir?.flows.get("main")?.stepById.get("design");
    expect(step?.kind).toBe("debate");
    expect(step?.outputContract).toBe("Decision");
    expect(step?.debate?.debaters).toEqual([
      { id: "pro", agent: "claude", intent: "Argue your side" },
      { id: "con", agent: null, intent: "Argue against" },
    ]);
    expect(step?.debate?.converge?.text).toBe(
      "all(a.position == round[0].position for a in round) and round_number >= 2",
    );
    expect(step?.debate?.synthesis).toEqual({
      agent: null,
      intent: "Decide",
      outputContract: "Decision",
      retries: 1,
    });
  });

  it("converge sees round and history typed by argument_contract, at exact ranges", () => {
    const text = debateSpec(
      `argument_contract: Argument\nconverge: "round[0].postion == history[0][1].pointz"\n${SYNTHESIS}`,
    );
    expect(diagnostics(text)).toEqual([
      "EXPR-UNKNOWN-FIELD 18:29-18:36 contract 'Argument' has no field 'postion'",
      "EXPR-UNKNOWN-FIELD 18:54-18:60 contract 'Argument' has no field 'pointz'",
    ]);
    expect(checkSpec(text).diagnostics[0]?.path).toBe("flows.main.steps.design.converge");
  });

  it("round_number is an int; result is not bound in converge", () => {
    expect(
      diagnostics(debateSpec(`converge: "round_number + 'x' or result"\n${SYNTHESIS}`)).map(
        (d) => d.split(" ")[0],
      ),
    ).toEqual(["EXPR-TYPE", "EXPR-UNKNOWN-NAME"]);
  });

  it("without argument_contract the arguments are any", () => {
    expect(
      diagnostics(debateSpec(`converge: "round[0].anything and history[-1][0]['x']"\n${SYNTHESIS}`)),
    ).toEqual([]);
  });

  it("the step's output has the synthesis contract's type", () => {
    expect(diagnostics(debateSpec(SYNTHESIS, "$.steps.design.output.choise"))).toEqual([
      "SPEC-REF-UNKNOWN-FIELD 20:43-20:49 Reference '$.steps.design.output.choise': contract 'Decision' has no field 'choise'",
    ]);
  });

  it("missing keys, debaters without an intent and undefined contracts are reported", () => {
    const text = [
      'version: "0.3"',
      "flows:",
      "  main:",
      "    input: {}",
      "    steps:",
      "      - id: design",
      "        type: debate",
      "        debaters: [{id: pro}]",
      "        argument_contract: Nope",
      "",
    ].join("\n");
    expect(diagnostics(text)).toEqual([
      "SPEC-DEBATE-MISSING-KEY 6:13-6:19 Debate step 'design' must have 'rounds'",
      "SPEC-DEBATE-MISSING-KEY 6:13-6:19 Debate step 'design' must have 'synthesis'",
      "SPEC-DEBATE-MISSING-KEY 8:20-8:29 Debate step 'design' must have 'intent': debater 'pro' has none",
      "SPEC-DEBATE-CONTRACT-UNDEFINED 9:28-9:32 Step 'design' argument_contract 'Nope' not defined",
    ]);
    expect(checkSpec(text).ir).toBeNull();
  });

  it("the debate keys on another kind of step are reported at their keys", () => {
    const text = debateSpec(SYNTHESIS).replace(
      "type: debate",
      'type: quorum\n        runs: 3\n        agree_on: "1"',
    );
    expect(diagnostics(text).filter((d) => d.startsWith("SPEC-DEBATE"))).toEqual([
      "SPEC-DEBATE-ONLY-KEY 17:9-17:17 Step 'design' has 'debaters' but is not a debate step",
      "SPEC-DEBATE-ONLY-KEY 18:9-18:15 Step 'design' has 'rounds' but is not a debate step",
      "SPEC-DEBATE-ONLY-KEY 19:9-19:18 Step 'design' has 'synthesis' but is not a debate step",
    ]);
  });

  it("type: debate is a 0.3 kind", () => {
    const codes = checkSpec(
      debateSpec(SYNTHESIS).replace('version: "0.3"', 'version: "0.2"'),
    ).diagnostics.map((d) => d.code);
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.some((c) => c.startsWith("SPEC-DEBATE"))).toBe(false);
  });
});
