// The incremental checker answers exactly as checkSpec, and patches the YAML tree only for the
// changes it can prove harmless (the rest are reloaded).
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { IncrementalChecker, type YamlReuse } from "../../../checker/incremental/incremental-checker";
import { DiagnosticSink } from "../../../checker/report";
import { SpecSource } from "../../../checker/source";
import { loadYaml } from "../../../checker/yaml/load";
import { applyEdit, benchFixture, checkShape, treeShape } from "./support";

const BASE = benchFixture();

/** Replaces the `occurrence`-th `find` (after `after`) by `replace`. */
function edited(text: string, after: string, find: string, replace: string): string {
  const from = text.indexOf(after);
  const at = text.indexOf(find, from);
  if (from < 0 || at < 0) throw new Error(`not in the fixture: ${after} … ${find}`);
  return applyEdit(text, at, at + find.length, replace);
}

/** Checks `before` then `after` with one checker; both must equal checkSpec, tree included. */
function recheck(before: string, after: string): { reuse: YamlReuse; codes: string[] } {
  const checker = new IncrementalChecker();
  expect(checkShape(checker.check(before))).toEqual(checkShape(checkSpec(before)));
  const result = checker.check(after);
  const full = checkSpec(after);
  expect(checkShape(result)).toEqual(checkShape(full));
  const loaded = loadYaml(new SpecSource(after), new DiagnosticSink());
  if (result.model !== null) expect(treeShape(result.model.root)).toEqual(treeShape(loaded.root));
  expect(result.model === null).toBe(full.model === null);
  expect(result.ir === null).toBe(full.ir === null);
  return { reuse: checker.yamlReuse, codes: result.diagnostics.map((d) => d.code) };
}

describe("changes inside one scalar patch the tree", () => {
  const cases: [string, string, string, string, string[]][] = [
    ["a word of a literal block", "- id: triage", "smallest", "simplest", []],
    ["a word of a folded block", "plan_feature:", "small tasks", "tiny tasks", []],
    ["a double-quoted expression", "exit_criterion:", "0.8", "0.95", []],
    [
      "a field misspelt in an expression",
      "exit_criterion:",
      "result.approved",
      "result.aproved",
      ["EXPR-UNKNOWN-FIELD"],
    ],
    ["a plain int", "plan_feature:", "retries: 2", "retries: 25", []],
    ["a plain value that becomes invalid", "plan_feature:", "mode: infer", "mode: inferx", ["SCHEMA-ENUM"]],
    ["a key", "plan_feature:", "retries:", "retriez:", ["SCHEMA-UNKNOWN-KEY"]],
    [
      "an item of a flow sequence",
      "- id: approve",
      "[review]",
      "[reviews]",
      ["SPEC-REF-MAY-NOT-HAVE-RUN", "SPEC-DEPENDS-ON-UNKNOWN"],
    ],
    [
      "a value in a flow mapping",
      "Task:",
      "{ type: integer }",
      "{ type: integr }",
      ["SPEC-CONTRACT-FIELD-TYPE-UNKNOWN"],
    ],
    ["a double-quoted escape", "- id: plan", '"$.input.feature"', '"$.input.feat\\u0075re"', []],
    ["a plain value typed as a bool", "- id: approve", "policy: flag", "policy: yes", ["SCHEMA-TYPE"]],
    [
      "a single-quoted string in a flow sequence",
      "values: [low",
      "[low, medium, high]",
      "['low', medium, high]",
      [],
    ],
  ];
  for (const [what, after, find, replace, expected] of cases) {
    it(what, () => {
      const { reuse, codes } = recheck(BASE, edited(BASE, after, find, replace));
      expect(codes).toEqual(expected);
      if (find.startsWith("[low")) return; // the first edit turns a plain scalar into a quoted one
      expect(reuse).toBe("patched");
    });
  }
});

describe("changes that may alter the token structure reload the tree", () => {
  const cases: [string, string, string, string][] = [
    ["': ' in a plain value", "plan_feature:", "mode: infer", "mode: in: fer"],
    ["a line break in a plain value", "plan_feature:", "mode: infer", "mode: in\nfer"],
    ["' #' in a plain value", "plan_feature:", "mode: infer", "mode: in #fer"],
    ["a key renamed to its sibling's name", "plan_feature:", "retries:", "ensure:"],
    ["a comment", "# A typical", "typical", "usual"],
    ["a quote inside a double-quoted scalar", "exit_criterion:", "result.approved", 'result."approved'],
    ["the indentation of a block line", "- id: triage", "          smallest", "           smallest"],
    ["a merge key", "plan_feature:", "retries:", "<<:"],
    ["an anchor indicator first", "plan_feature:", "mode: infer", "mode: &infer"],
    ["a flow indicator in a flow sequence", "- id: approve", "[review]", "[rev,iew]"],
    ["a tab", "plan_feature:", "mode: infer", "mode: in\tfer"],
    ["an escaped closing quote", "- id: plan", '"$.input.feature"', '"$.input.feature\\"'],
    ["whitespace between nodes", "plan_feature:", "    mode: infer", "     mode: infer"],
  ];
  for (const [what, after, find, replace] of cases) {
    it(what, () => {
      expect(recheck(BASE, edited(BASE, after, find, replace)).reuse).toBe("loaded");
    });
  }

  it("a single quote doubled at the end (the scalar no longer closes there)", () => {
    const text = "version: \"0.2\"\nx: ['low', b]\n";
    const { reuse, codes } = recheck(text, text.replace("'low'", "'low''"));
    expect(reuse).toBe("loaded");
    expect(codes).toEqual(["YAML-SYNTAX", "YAML-SYNTAX"]);
  });

  it("a tree with aliases (a node in two places)", () => {
    const text = 'version: "0.2"\nx: &a [foo]\ny: *a\n';
    expect(recheck(text, text.replace("foo", "fob")).reuse).toBe("loaded");
  });

  it("a tree whose load reported a YAML diagnostic", () => {
    const text = 'version: "0.2"\nversion: "0.1"\nflows: {}\n';
    const { reuse, codes } = recheck(text, text.replace("{}", "{ }"));
    expect(reuse).toBe("loaded");
    expect(codes).toContain("YAML-DUPLICATE-KEY");
  });
});

describe("successive versions", () => {
  it("patch a patched tree, and patch again after a reload", () => {
    const checker = new IncrementalChecker();
    let text = BASE;
    checker.check(text);
    expect(checker.yamlReuse).toBe("loaded");
    const steps: [string, string, string, YamlReuse][] = [
      ["- id: triage", "smallest", "simplest", "patched"],
      ["exit_criterion:", "0.8", "0.85", "patched"],
      ["- id: plan", "plan_feature", "plan_feature\n", "loaded"],
      ["- id: plan", "plan_feature\n", "plan_featur\n", "patched"],
      ["workflow:", "feature-build", "feature-built", "patched"],
      ["- id: triage", "the tests pass.", "all the tests pass.", "patched"],
    ];
    for (const [after, find, replace, reuse] of steps) {
      text = edited(text, after, find, replace);
      const result = checker.check(text);
      expect({ replace, reuse: checker.yamlReuse }).toEqual({ replace, reuse });
      expect(checkShape(result)).toEqual(checkShape(checkSpec(text)));
      const loaded = loadYaml(new SpecSource(text), new DiagnosticSink());
      if (result.model !== null) expect(treeShape(result.model.root)).toEqual(treeShape(loaded.root));
    }
  });

  it("the same text twice gives the same answer", () => {
    const checker = new IncrementalChecker();
    const first = checker.check(BASE);
    expect(checkShape(checker.check(BASE))).toEqual(checkShape(first));
  });
});
