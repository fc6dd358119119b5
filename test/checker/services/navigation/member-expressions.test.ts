// Navigation and rename see the 0.3 step kinds' fields: `$` paths inside a parallel_dispatch
// step's `validate`, a debate's `converge` and a quorum's `agree_on`, the `source` reference, and
// the contracts named by `member_contract`, `argument_contract` and a synthesis' `output_contract`.
import { describe, expect, it } from "vitest";
import { definitionAt, referencesAt, renameAt } from "../../../../checker/services/navigation";
import type { SpecDocument } from "../../../../checker/services/types";
import { SPEC03 } from "../assist/member-expressions-support";
import { applyEdits, docOf, show } from "./support";

/** SPEC03 with the expressions reading `$.steps.classify` as well (converge and agree_on). */
const TEXT = SPEC03.replace(
  "and len(history) > 0",
  "and len(history) > len($.steps.classify.output.severity)",
).replace('agree_on: "result.severity"', 'agree_on: "result.severity if $.steps.run.output else None"');

function renamed(doc: SpecDocument, offset: number, name: string): string {
  const r = renameAt(doc, offset, name);
  if (!r.ok) throw new Error(r.message);
  return applyEdits(doc.text, r.edits);
}

/** The offset of the `n`-th occurrence (from 0) of `needle`, plus `delta`. */
function offsetOf(text: string, needle: string, n = 0, delta = 0): number {
  let at = -1;
  for (let i = 0; i <= n; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`no occurrence ${n} of ${needle}`);
  }
  return at + delta;
}

describe("$ paths in validate, converge and agree_on", () => {
  const doc = docOf(TEXT);

  it("the fixture checks clean", () => {
    expect(doc.check.diagnostics).toEqual([]);
  });

  it("go to definition from a path in validate lands on the step id", () => {
    const inValidate = offsetOf(TEXT, "len($.steps.plan", 0, "len($.steps.".length + 1);
    expect(show(doc, definitionAt(doc, inValidate))).toEqual(["22:plan"]);
  });

  it("references of a step include the source, validate, agree_on and converge", () => {
    const plan = offsetOf(TEXT, "- id: plan", 0, "- id: ".length);
    expect(show(doc, referencesAt(doc, plan, false))).toEqual(["29:plan", "31:plan", "34:plan"]);
    const classify = offsetOf(TEXT, "- id: classify", 0, "- id: ".length);
    expect(show(doc, referencesAt(doc, classify, false))).toEqual(["48:classify", "50:classify"]);
    const run = offsetOf(TEXT, "- id: run", 0, "- id: ".length);
    expect(show(doc, referencesAt(doc, run, false))).toEqual(["40:run", "41:run"]);
  });

  it("renaming a step rewrites its path in validate (and source, depends_on)", () => {
    const text = renamed(doc, offsetOf(TEXT, "len($.steps.plan", 0, "len($.steps.".length), "planning");
    expect(text).toBe(
      TEXT.replace("- id: plan\n", "- id: planning\n")
        .replace("depends_on: [plan]", "depends_on: [planning]")
        .replaceAll("$.steps.plan.output.tasks", "$.steps.planning.output.tasks"),
    );
    expect(docOf(text).check.diagnostics).toEqual([]);
  });

  it("renaming a step from its id rewrites the paths in agree_on and converge", () => {
    const text = renamed(doc, offsetOf(TEXT, "- id: classify", 0, "- id: ".length), "triage");
    expect(text).toBe(TEXT.replaceAll("classify", "triage"));
    expect(docOf(text).check.diagnostics).toEqual([]);
  });
});

describe("contracts named by the 0.3 keys", () => {
  const doc = docOf(TEXT);

  it("renaming a member contract rewrites member_contract", () => {
    const text = renamed(doc, offsetOf(TEXT, "  Report:", 0, 2), "TaskReport");
    expect(text).toBe(
      TEXT.replace("  Report:", "  TaskReport:").replace(
        "member_contract: Report",
        "member_contract: TaskReport",
      ),
    );
    expect(docOf(text).check.diagnostics).toEqual([]);
  });

  it("renaming from argument_contract and from a synthesis' output_contract", () => {
    const argument = renamed(
      doc,
      offsetOf(TEXT, "argument_contract: Argument", 0, "argument_contract: ".length),
      "Claim",
    );
    expect(argument).toBe(
      TEXT.replace("  Argument:", "  Claim:").replace(
        "argument_contract: Argument",
        "argument_contract: Claim",
      ),
    );
    const decision = renamed(
      doc,
      offsetOf(TEXT, "output_contract: Decision", 0, "output_contract: ".length),
      "Verdict",
    );
    expect(decision).toBe(TEXT.replaceAll("Decision", "Verdict"));
    expect(docOf(decision).check.diagnostics).toEqual([]);
  });
});
