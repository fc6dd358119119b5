// prepareRename and renameAt: the edits (exact resulting text), quoting where a bare name would not
// load as a string, path segments inside every scalar style, groups of symbols that move together,
// and the refusals with their messages.
import { describe, expect, it } from "vitest";
import { prepareRename, renameAt } from "../../../../checker/services/navigation";
import type { RenameResult, SpecDocument } from "../../../../checker/services/types";
import { applyEdits, cursor, docOf, markedDoc, show } from "./support";

function renamed(doc: SpecDocument, offset: number, name: string): string {
  const r = renameAt(doc, offset, name);
  if (!r.ok) throw new Error(r.message);
  return applyEdits(doc.text, r.edits);
}

function message(r: RenameResult): string {
  return r.ok ? "(accepted)" : r.message;
}

const STEPS = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: 'sc<|>an'
        intent: Scan
      - id: fix
        intent: Fix
        inputs:
          found: "$.steps.scan.output"
        depends_on: [scan]
        skip_if: "len($.steps.\\x73can.output) == 0"
        ensure:
          - |
            $.steps.scan.output is not None
          - >-
            $.steps.scan.output
            is not None
        next: last
      - id: last
        intent: Last
        depends_on:
          - scan
`;

describe("renaming a step", () => {
  const m = markedDoc(STEPS);

  it("prepareRename gives the name under the cursor without its quotes", () => {
    expect(m.doc.check.errors).toEqual([]);
    const p = prepareRename(m.doc, cursor(m));
    expect(p?.placeholder).toBe("scan");
    expect(show(m.doc, p === null ? [] : [p.range])).toEqual(["6:scan"]);
  });

  it("rewrites the id, depends_on items, inputs and paths in every scalar style", () => {
    const text = renamed(m.doc, cursor(m), "survey");
    expect(text).toBe(
      STEPS.replace("<|>", "")
        .replaceAll("scan", "survey")
        .replace("\\x73can", "survey")
        .replace("'sc'", "'survey'"),
    );
    expect(text).toContain("- id: 'survey'");
    expect(text).toContain('skip_if: "len($.steps.survey.output) == 0"');
    expect(docOf(text).check.diagnostics).toEqual([]);
  });

  it("from a reference as well as from the definition", () => {
    const at = STEPS.replace("<|>", "").indexOf("[scan]") + 2;
    expect(renamed(m.doc, at, "survey")).toBe(renamed(m.doc, cursor(m), "survey"));
  });

  it("refuses a name that cannot be a $ path segment when paths use the step", () => {
    expect(message(renameAt(m.doc, cursor(m), "the scan"))).toBe(
      "Step 'scan' of flow 'main' is referenced by a $ path (line 11): 'the scan' must use only letters, digits and '_'",
    );
  });

  it("refuses a name already used by a step of the same flow", () => {
    expect(message(renameAt(m.doc, cursor(m), "fix"))).toBe("Flow 'main' already has a step 'fix'");
  });

  it("refuses empty, multi-line and padded names", () => {
    expect(message(renameAt(m.doc, cursor(m), ""))).toBe("The new name must not be empty");
    expect(message(renameAt(m.doc, cursor(m), "a\nb"))).toBe(
      "The new name must be one line without control characters",
    );
    expect(message(renameAt(m.doc, cursor(m), " a"))).toBe(
      "The new name must not start or end with whitespace",
    );
  });

  it("the same name: nothing to change", () => {
    expect(renameAt(m.doc, cursor(m), "scan")).toEqual({ ok: true, edits: [] });
  });
});

describe("unusual scalar styles", () => {
  const SPEC = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: >-
          scan
        intent: Scan
      - id: next_one
        intent: Next
        depends_on: ["sc\\x61n"]
        skip_if: $.steps.scan.output is None
          and $.steps.scan.output is not None
`;
  const doc = docOf(SPEC);

  it("a folded block id keeps its header; plain multi-line expressions and escapes are rewritten", () => {
    expect(doc.check.errors).toEqual([]);
    const text = renamed(doc, SPEC.indexOf("scan"), "survey");
    expect(text).toBe(SPEC.replaceAll("scan", "survey").replace("sc\\x61n", "survey"));
    expect(docOf(text).check.errors).toEqual([]);
  });
});

describe("quoting", () => {
  const m = markedDoc(`version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: fi<|>rst
        intent: First
      - id: second
        intent: Second
        depends_on: [first]
        ensure: [result.ok]
        on_fail: first
`);

  it("a name that is not a safe bare scalar is double-quoted everywhere (no $ path uses the step)", () => {
    const text = renamed(m.doc, cursor(m), "first step: a, b");
    expect(text).toBe(`version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: "first step: a, b"
        intent: First
      - id: second
        intent: Second
        depends_on: ["first step: a, b"]
        ensure: [result.ok]
        on_fail: "first step: a, b"
`);
    expect(docOf(text).check.errors).toEqual([]);
  });

  it("a name YAML would load as another type (yes, 12, null) is quoted", () => {
    for (const name of ["yes", "12", "null"]) {
      const text = renamed(m.doc, cursor(m), name);
      expect(text).toContain(`- id: "${name}"`);
      expect(text).toContain(`depends_on: ["${name}"]`);
      expect(docOf(text).check.errors).toEqual([]);
    }
  });
});

describe("functions, flows, contracts and inputs", () => {
  const SPEC = `version: "0.2"
workflow:
  name: deploy
  description: Deploy
  input:
    target: {type: string}
contracts:
  Out:
    ok: {type: boolean}
    nested: {type: array, items: {type: Out}}
functions:
  check:
    mode: compute
    intent: Check
    output: Out
flows:
  deploy:
    input:
      target: {type: string}
    steps:
      - id: first
        function: check
        inputs:
          where: "$.input.target"
      - id: child
        flow: sub
        inputs:
          item: "$.input.target"
        output_contract: Out
  sub:
    input:
      item: {type: string}
    steps:
      - id: one
        function: check
        inputs:
          thing: $.input.item
`;
  const doc = docOf(SPEC);
  const at = (needle: string, nth = 0): number => {
    let i = -1;
    for (let k = 0; k <= nth; k++) i = SPEC.indexOf(needle, i + 1);
    if (i < 0) throw new Error(needle);
    return i + 1;
  };

  it("the spec checks clean", () => {
    expect(doc.check.errors).toEqual([]);
  });

  it("a contract: key, outputs, output_contract, field types and items types", () => {
    const text = renamed(doc, at("Out:"), "Result");
    expect(text).toBe(SPEC.replaceAll("Out", "Result"));
    expect(docOf(text).check.errors).toEqual([]);
  });

  it("a contract cannot take a built-in type name", () => {
    expect(message(renameAt(doc, at("Out:"), "string"))).toBe(
      "'string' is a built-in field type: a contract cannot have that name",
    );
  });

  it("a function: key and step values", () => {
    const text = renamed(doc, at("check:"), "verify");
    expect(text).toBe(SPEC.replaceAll("function: check", "function: verify").replace("check:", "verify:"));
  });

  it("the entry flow: key and workflow.name; the new name must suit workflow.name", () => {
    expect(renamed(doc, at("name: deploy") + 6, "ship")).toBe(
      SPEC.replace("name: deploy", "name: ship").replace("  deploy:", "  ship:"),
    );
    expect(message(renameAt(doc, at("  deploy:") + 2, "Ship"))).toBe(
      "Flow 'deploy' is named by workflow.name: workflow.name must match ^[a-z][a-z0-9-]*$",
    );
    expect(message(renameAt(doc, at("  deploy:") + 2, "sub"))).toBe("A flow 'sub' already exists");
  });

  it("a sub-flow: key and flow values", () => {
    const text = renamed(doc, at("flow: sub") + 6, "child_flow");
    expect(text).toBe(SPEC.replace("flow: sub", "flow: child_flow").replace("  sub:", "  child_flow:"));
    expect(docOf(text).check.errors).toEqual([]);
  });

  it("an entry-flow input: its key, $.input paths and workflow.input", () => {
    const text = renamed(doc, at("$.input.target") + 8, "dest");
    expect(text).toBe(SPEC.replaceAll("target", "dest"));
    expect(docOf(text).check.errors).toEqual([]);
  });

  it("a sub-flow input: its key, its $.input paths and the input keys of the calling step", () => {
    const text = renamed(doc, at("$.input.item") + 8, "component");
    expect(text).toBe(SPEC.replaceAll("item:", "component:").replace("$.input.item", "$.input.component"));
  });

  it("an input name taken in a mapping where the key is written", () => {
    const other = docOf(SPEC.replace('item: "$.input.target"', 'item: "$.input.target"\n          extra: x'));
    expect(message(renameAt(other, other.text.indexOf("$.input.item") + 9, "extra"))).toBe(
      "The mapping at line 28 already has a key 'extra'",
    );
    expect(message(renameAt(doc, at("$.input.item") + 8, "item2"))).toBe("(accepted)");
  });

  it("contract fields, modes and literals are not renameable", () => {
    expect(prepareRename(doc, at("ok:"))).toBeNull();
    expect(prepareRename(doc, at("compute"))).toBeNull();
    expect(message(renameAt(doc, at("compute"), "x"))).toBe(
      "No step, function, flow, contract or input here",
    );
  });
});

describe("a function's ensure ties the steps of the flows using it", () => {
  const SPEC = `version: "0.2"
contracts:
  Out:
    ok: {type: boolean}
functions:
  work:
    mode: infer
    intent: Work
    output: Out
    ensure:
      - "$.steps.prep.output.ok or True"
flows:
  a:
    input: {}
    steps:
      - id: prep
        intent: Prepare
        output_contract: Out
      - id: run
        function: work
        depends_on: [prep]
  b:
    input: {}
    steps:
      - id: prep
        intent: Prepare
        output_contract: Out
      - id: run
        function: work
        depends_on: [prep]
      - id: setup
        intent: Setup
`;
  const doc = docOf(SPEC);

  it("renaming the step in one flow renames it in every flow using the function", () => {
    const text = renamed(doc, SPEC.indexOf("prep") + 1, "ready");
    expect(text).toBe(SPEC.replaceAll("prep", "ready"));
    expect(docOf(text).check.errors).toEqual([]);
  });

  it("the new name must be free in each of those flows", () => {
    expect(message(renameAt(doc, SPEC.indexOf("prep") + 1, "setup"))).toBe(
      "Flow 'b' already has a step 'setup'",
    );
  });
});

describe("unknown names and broken documents", () => {
  it("a reference to an undeclared step cannot be renamed", () => {
    const m = markedDoc(`version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: A
        next: mis<|>sing
`);
    expect(prepareRename(m.doc, cursor(m))).toBeNull();
    expect(message(renameAt(m.doc, cursor(m), "b"))).toBe(
      "This name cannot be renamed (it is not declared in this document)",
    );
  });

  it("broken YAML: nothing to rename", () => {
    const m = markedDoc(
      `version: "0.2"\nflows:\n  main:\n    steps:\n      - id: a<|>\n        inputs: {x: [\n`,
    );
    expect(prepareRename(m.doc, cursor(m))).toBeNull();
    expect(renameAt(m.doc, cursor(m), "b").ok).toBe(false);
  });
});

const PROPERTIES = `version: "0.2"
functions:
  sign:
    mode: gate
flows:
  release:
    input:
      version: {type: string}
    steps:
      - id: build
        intent: Build
        inputs: {version: "$.input.version"}
      - id: sign_o<|>ff
        function: sign
        on_approve: deploy
        on_revise: build
        on_kill: ~
      - id: deploy
        intent: Deploy
properties:
  approved:
    flow: release
    always: "$.steps.deploy.status != 'done' or $.gates.sign_off.outcome == 'approve'"
  answered:
    flow: release
    leads_to: {from: "$.gates.sign_off.outcome == 'revise'", to: "$.steps.build.status == 'done'"}
`;

describe("renaming what a property names", () => {
  it("a gate's id is renamed in the properties' $.gates paths", () => {
    const m = markedDoc(PROPERTIES);
    expect(m.doc.check.errors).toEqual([]);
    const text = renamed(m.doc, cursor(m), "approval");
    expect(text).toBe(PROPERTIES.replace("<|>", "").replaceAll("sign_off", "approval"));
    expect(docOf(text).check.errors).toEqual([]);
  });

  it("a step's id and an input's name are renamed in $.steps and $.input paths", () => {
    const m = markedDoc(
      PROPERTIES.replace("sign_o<|>ff", "sign_off").replace("- id: deploy", "- id: dep<|>loy"),
    );
    const text = renamed(m.doc, cursor(m), "ship");
    expect(text).toContain("$.steps.ship.status != 'done'");
    expect(text).toContain("on_approve: ship");
    expect(docOf(text).check.errors).toEqual([]);
    const flow = markedDoc(
      PROPERTIES.replace("sign_o<|>ff", "sign_off")
        .replace("  rele<|>ase:", "  release:")
        .replace("flows:\n  release:", "flows:\n  rel<|>ease:"),
    );
    const renamedFlow = renamed(flow.doc, cursor(flow), "ship_it");
    expect(renamedFlow.match(/flow: ship_it/g)?.length).toBe(2);
    expect(docOf(renamedFlow).check.errors).toEqual([]);
  });
});
