// The expression fields of stratumc's 0.3 step kinds in the editor services: a parallel_dispatch
// step's `validate` (results, tasks, completed, failed), a quorum's `agree_on` (result) and a
// debate's `converge` (round, history, round_number) get hover types, completion of their bound
// names and of member-contract fields, semantic tokens and signature help, like an `ensure`.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../../checker/check-spec";
import { completionsAt, hoverAt, semanticTokens, signatureHelpAt } from "../../../../checker/services/assist";
import type { SpecDocument } from "../../../../checker/services/types";
import { SPEC03 } from "./member-expressions-support";
import { docAt, docWithRanges, labels } from "./support";

/** SPEC03 with `from` (which must occur once) replaced by `to`, which carries the markers. */
function variant(from: string, to: string): string {
  expect(SPEC03.split(from)).toHaveLength(2);
  return SPEC03.replace(from, to);
}

function hoverText(source: string): string | undefined {
  const { doc, offset } = docAt(source);
  return hoverAt(doc, offset)?.contents;
}

function completionLabels(source: string): string[] {
  const { doc, offset } = docAt(source);
  return labels(completionsAt(doc, offset));
}

/** The labels of one kind of item (`variable`: names in scope; `field`: contract fields). */
function completionsOfKind(source: string, kind: string): string[] {
  const { doc, offset } = docAt(source);
  return labels(completionsAt(doc, offset).filter((i) => i.kind === kind));
}

const VALIDATE = "sum(r.tests_added for r in results)";
const CONVERGE = "round_number >= 2 and all(a.position == round[0].position for a in round)";

describe("the fixture", () => {
  it("checks clean, so hover reads the expression phase's own types", () => {
    expect(checkSpec(SPEC03).diagnostics).toEqual([]);
  });
});

describe("hover", () => {
  it("validate: results over the member contract, with its doc, at the name's exact range", () => {
    const { doc, offset, ranges } = docWithRanges(
      variant(VALIDATE, "sum(r.tests_added for r in «res<|>ults»)"),
    );
    expect(hoverAt(doc, offset)).toEqual({
      contents:
        "```\n(parameter) results: list[ns[Report]]\n```\n\nThe completed tasks' results, in task order; fields of `member_contract` (validate only).",
      range: ranges[0],
    });
  });

  it("validate: a member field, failed and a $ path", () => {
    expect(hoverText(variant(VALIDATE, "sum(r.tests_ad<|>ded for r in results)"))).toContain(
      "(field) Report.tests_added: int",
    );
    expect(hoverText(variant("len(failed)", "len(fai<|>led)"))).toContain("(parameter) failed: list[str]");
    expect(hoverText(variant(">= len($.steps.plan", ">= len($.steps.pl<|>an"))).toContain(
      "$.steps.plan.output.tasks: list[Task] | none",
    );
  });

  it("converge: round, history and round_number, and an argument's field", () => {
    expect(hoverText(variant(CONVERGE, CONVERGE.replace("for a in round", "for a in ro<|>und")))).toContain(
      "(parameter) round: list[ns[Argument]]",
    );
    expect(hoverText(variant("len(history)", "len(hist<|>ory)"))).toContain(
      "(parameter) history: list[list[ns[Argument]]]",
    );
    expect(hoverText(variant(CONVERGE, `round_num<|>${CONVERGE.slice(9)}`))).toContain(
      "(parameter) round_number: int",
    );
    expect(hoverText(variant(CONVERGE, CONVERGE.replace("a.position", "a.posi<|>tion")))).toContain(
      "(field) Argument.position: str",
    );
  });

  it("agree_on: result is the output contract's record", () => {
    expect(hoverText(variant('"result.severity"', '"result.sev<|>erity"'))).toContain(
      "(field) Classification.severity: str",
    );
  });

  it("a validate that does not parse is typed in the same environment (repaired tree)", () => {
    const text = variant(`${VALIDATE} >=`, "len(res<|>ults) >= and");
    expect(checkSpec(text.replace("<|>", "")).errors.length).toBeGreaterThan(0);
    expect(hoverText(text)).toContain("(parameter) results: list[ns[Report]]");
  });

  it("result in validate or converge is not a position name: no position doc", () => {
    const shown = hoverText(variant("len(failed) == 0", "len(failed) == 0 and res<|>ult"));
    expect(shown).toContain("(name) result");
    expect(shown).not.toContain("The step's result");
  });
});

describe("completion", () => {
  it("validate offers results, tasks, completed and failed as its names, not result", () => {
    const { doc, offset } = docAt(variant("and len(failed) == 0", "and <|>"));
    const items = completionsAt(doc, offset);
    expect(labels(items.filter((i) => i.kind === "variable"))).toEqual([
      "results",
      "tasks",
      "completed",
      "failed",
    ]);
    expect(items.find((i) => i.label === "results")?.detail).toBe("list[ns[Report]]");
    // round stays the builtin here
    expect(items.find((i) => i.label === "round")?.kind).toBe("builtin");
  });

  it("validate offers the member contract's fields after r.", () => {
    expect(completionsOfKind(variant(VALIDATE, "sum(r.<|> for r in results)"), "field")).toEqual([
      "tests_added",
      "summary",
    ]);
  });

  it("converge offers round, history and round_number, and the argument contract's fields", () => {
    const { doc, offset } = docAt(variant(CONVERGE, `${CONVERGE} and <|>`));
    const items = completionsAt(doc, offset);
    expect(labels(items.filter((i) => i.kind === "variable"))).toEqual(["round", "history", "round_number"]);
    expect(items.find((i) => i.label === "history")?.detail).toBe("list[list[ns[Argument]]]");
    // the bound round shadows the builtin: one item
    expect(items.filter((i) => i.label === "round").map((i) => i.kind)).toEqual(["variable"]);
    expect(completionsOfKind(variant(CONVERGE, "all(a.<|> for a in round)"), "field")).toEqual([
      "position",
      "points",
    ]);
    expect(completionsOfKind(variant(CONVERGE, "history[0][0].<|>"), "field")).toEqual([
      "position",
      "points",
    ]);
  });

  it("agree_on offers result's fields", () => {
    expect(completionsOfKind(variant('"result.severity"', '"result.<|>"'), "field")).toEqual(["severity"]);
  });

  it("$ paths in validate: the other steps, then a step's output fields", () => {
    expect(completionLabels(variant(">= len($.steps.plan.output.tasks)", ">= len($.steps.<|>)"))).toEqual([
      "plan",
      "classify",
      "design",
    ]);
    expect(
      completionLabels(variant(">= len($.steps.plan.output.tasks)", ">= len($.steps.plan.output.<|>)")),
    ).toEqual(["tasks"]);
  });

  it("source of a parallel_dispatch step completes like a $ input", () => {
    expect(
      completionLabels(variant('source: "$.steps.plan.output.tasks"', 'source: "$.steps.plan.output.<|>"')),
    ).toEqual(["tasks"]);
  });
});

describe("contract names of the 0.3 keys", () => {
  it("member_contract, argument_contract and a synthesis' output_contract complete contract names", () => {
    for (const [from, to] of [
      ["member_contract: Report", "member_contract: <|>"],
      ["argument_contract: Argument", "argument_contract: Arg<|>"],
      ["output_contract: Decision}", "output_contract: <|>}"],
    ]) {
      expect(completionsOfKind(variant(from as string, to as string), "contract")).toEqual([
        "Task",
        "TaskGraph",
        "Report",
        "Classification",
        "Argument",
        "Decision",
      ]);
    }
  });

  it("hover on them shows the contract", () => {
    expect(hoverText(variant("member_contract: Report", "member_contract: Rep<|>ort"))).toContain(
      "tests_added",
    );
    expect(hoverText(variant("argument_contract: Argument", "argument_contract: Argu<|>ment"))).toContain(
      "position",
    );
    expect(hoverText(variant("output_contract: Decision}", "output_contract: Deci<|>sion}"))).toContain(
      "choice",
    );
  });
});

describe("semantic tokens", () => {
  function tokensOf(doc: SpecDocument, from: string): string[] {
    const start = doc.text.indexOf(from);
    const end = start + from.length;
    return semanticTokens(doc)
      .filter((t) => t.range.start >= start && t.range.end <= end)
      .map((t) => `${doc.text.slice(t.range.start, t.range.end)}:${t.type}`);
  }

  it("each field's own names are parameters; round is a builtin function elsewhere", () => {
    const text = variant(
      "        member_contract: Report\n",
      '        member_contract: Report\n        ensure: ["round(len(result.tasks)) >= 0"]\n',
    );
    const doc: SpecDocument = { text, check: checkSpec(text) };
    expect(tokensOf(doc, "sum(r.tests_added for r in results)")).toEqual([
      "sum:function",
      "r:variable",
      "tests_added:property",
      "for:keyword",
      "r:variable",
      "in:keyword",
      "results:parameter",
    ]);
    expect(tokensOf(doc, "len(failed)")).toEqual(["len:function", "failed:parameter"]);
    expect(tokensOf(doc, "round_number >= 2 and all(a.position == round[0].position")).toEqual([
      "round_number:parameter",
      ">=:operator",
      "2:number",
      "and:keyword",
      "all:function",
      "a:variable",
      "position:property",
      "==:operator",
      "round:parameter",
      "0:number",
      "position:property",
    ]);
    expect(tokensOf(doc, '"result.severity"')).toEqual(["result:parameter", "severity:property"]);
    expect(tokensOf(doc, "round(len(result.tasks))")).toEqual([
      "round:function",
      "len:function",
      "result:parameter",
      "tasks:property",
    ]);
    expect(tokensOf(doc, '"$.steps.plan.output.tasks"')).toEqual(["$.steps.plan.output.tasks:namespace"]);
  });
});

describe("signature help", () => {
  it("inside converge, with the method's receiver typed by the environment", () => {
    const { doc, offset } = docAt(variant(CONVERGE, `${CONVERGE} and round[0].position.startswith(<|>)`));
    const help = signatureHelpAt(doc, offset);
    expect(help?.signatures[0]?.label).toContain("str.startswith(");
  });
});
