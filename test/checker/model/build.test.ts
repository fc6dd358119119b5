// The spec model built by the structure phase (checker/model/build.ts): declarations in order,
// Map-based name lookup, field validity, typed accessors, step ids, kinds and resolution.
import { describe, expect, it } from "vitest";
import type { SpecModel, StepDecl } from "../../../checker/model/types";
import { runStructure, yaml } from "../schema/helpers";

function model(text: string): SpecModel {
  const m = runStructure(text).model;
  if (m === null) throw new Error("no model");
  return m;
}

function steps(text: string): readonly StepDecl[] {
  const flow = model(text).flows[0];
  if (flow === undefined) throw new Error("no flow");
  return flow.steps;
}

const FNS = [
  "functions:",
  "  work: {mode: infer, intent: x, input: {}, output: Out}",
  "  calc: {mode: compute, output: Out}",
  "  approve: {mode: gate}",
  "  broken: {mode: think}",
];

describe("declarations", () => {
  const text = yaml(
    'version: "0.2"',
    "contracts:",
    "  Zed: {a: {type: string}, b: 5}",
    "  Alpha: {}",
    "  Bad: 5",
    "  __proto__: {x: {type: integer}}",
    "functions:",
    "  z: {mode: infer, output: Zed}",
    "  a: {mode: gate}",
    "  n: 5",
    "flows:",
    "  second: {input: {b: {}, a: {}}, steps: [{id: s, intent: x}]}",
    "  first: {input: [x], steps: [{id: f, intent: x}]}",
    "  constructor: {input: {}, steps: [{id: c, intent: x}]}",
    "workflow: {name: second, description: d, input: {b: {type: string}, a: {type: string}}}",
  );
  const m = model(text);

  it("keeps declaration order and skips non-mapping functions and flows", () => {
    expect(m.version).toBe("0.2");
    expect(m.contracts.map((c) => c.name)).toEqual(["Zed", "Alpha", "Bad", "__proto__"]);
    expect(m.functions.map((f) => f.name)).toEqual(["z", "a"]);
    expect(m.flows.map((f) => f.name)).toEqual(["second", "first", "constructor"]);
  });

  it("looks names up in Maps (`__proto__` and `constructor` are ordinary names)", () => {
    expect(m.contractByName.get("__proto__")?.fields.map((f) => f.name)).toEqual(["x"]);
    expect(m.flowByName.get("constructor")?.name).toBe("constructor");
    expect(m.functionByName.get("toString")).toBeUndefined();
    expect(m.contractByName.get("Bad")?.node).toBeNull();
  });

  it("gives contract fields, with def null for a non-mapping definition", () => {
    const zed = m.contractByName.get("Zed");
    expect(zed?.fields.map((f) => [f.name, f.def === null])).toEqual([
      ["a", false],
      ["b", true],
    ]);
    expect(zed?.fields[0]?.def?.type?.value).toBe("string");
  });

  it("lists flow input names in declaration order (none when input is not a mapping)", () => {
    expect(m.flowByName.get("second")?.inputNames).toEqual(["b", "a"]);
    expect(m.flowByName.get("first")?.inputNames).toEqual([]);
  });

  it("builds the workflow block in 0.2", () => {
    expect(m.workflow?.string("name")?.value).toBe("second");
    expect(m.workflow?.decl.name).toBe("workflow");
  });

  it("has no workflow in 0.1 (the key is unknown there)", () => {
    const m01 = model(yaml('version: "0.1"', "workflow: {name: x, description: y, input: {}}"));
    expect(m01.workflow).toBeNull();
  });

  it("records the nodes that got a value diagnostic in `invalid`", () => {
    const m2 = model(
      yaml('version: "0.2"', "functions:", "  w: {mode: infer, output: O, retries: 0, model: [x]}"),
    );
    const fn = m2.functions[0];
    const retries = fn?.entry("retries")?.value;
    const modelNode = fn?.entry("model")?.value;
    expect(retries !== undefined && m2.invalid.has(retries)).toBe(true);
    expect(modelNode !== undefined && m2.invalid.has(modelNode)).toBe(true);
    expect(fn !== undefined && m2.invalid.has(fn.node)).toBe(false);
  });
});

describe("field validity and typed accessors", () => {
  const text = yaml(
    'version: "0.2"',
    "contracts:",
    "  Out:",
    "    v: {type: string, required: no, values: [a, 1], note: free}",
    "    xs: {type: array, items: {type: array, items: {type: Out}}}",
    "    bad: {type: 5}",
    "functions:",
    "  w: {mode: infer, output: Out, retries: 2.0, ensure: [a, b], budget: {ms: 1, usd: 0.5}, model: m}",
    "  v: {mode: infer, output: Out, retries: 0, ensure: [a, 1], budget: {ms: 0}, input: {on: 1}}",
    "flows:",
    "  f:",
    "    input: {}",
    "    steps:",
    "      - {id: a, intent: x, on_approve: null, on_kill: k, max_iterations: 3, skip_if: 'True', inputs: {n: $.input.x}}",
  );
  const m = model(text);
  const [w, v] = m.functions;

  it("reads valid fields", () => {
    expect(w?.valid("retries")).toBe(true);
    expect(w?.integer("retries")?.value).toBe(2);
    expect(w?.strings("ensure")?.value.map((n) => n.value)).toEqual(["a", "b"]);
    expect(w?.map("budget")?.value.kind).toBe("map");
    expect(w?.string("model")?.value).toBe("m");
    expect(w?.string("output")?.entry.key.range).toEqual(w?.entry("output")?.key.range);
    expect(w?.mode).toBe("infer");
  });

  it("treats a field with a diagnostic in or below its value as invalid", () => {
    expect(v?.valid("retries")).toBe(false);
    expect(v?.integer("retries")).toBeNull();
    expect(v?.entry("retries")).toBeDefined();
    expect(v?.valid("ensure")).toBe(false); // an item is not a string
    expect(v?.strings("ensure")).toBeNull();
    expect(v?.valid("budget")).toBe(false); // ms below its minimum
    expect(v?.valid("input")).toBe(false); // a non-string key inside
    expect(v?.valid("mode")).toBe(true);
  });

  it("answers null for absent fields and for the wrong accessor", () => {
    expect(w?.valid("timeout")).toBe(false);
    expect(w?.integer("timeout")).toBeNull();
    expect(w?.string("retries")).toBeNull();
    expect(w?.boolean("model")).toBeNull();
    expect(w?.number("retries")?.value).toBe(2);
    expect(w?.seq("budget")).toBeNull();
  });

  it("reads contract field definitions, nested items included; other keys are valid", () => {
    const out = m.contractByName.get("Out");
    const [fv, xs, bad] = out?.fields ?? [];
    expect(fv?.def?.boolean("required")?.value).toBe(false);
    expect(fv?.def?.seq("values")?.value.items.length).toBe(2);
    expect(fv?.def?.valid("note")).toBe(true);
    expect(fv?.def?.items).toBeNull();
    expect(xs?.def?.items?.type?.value).toBe("array");
    expect(xs?.def?.items?.items?.type?.value).toBe("Out");
    expect(bad?.def?.type).toBeNull();
    expect(bad?.def?.valid("type")).toBe(false);
  });

  it("reads step fields, nullable strings included", () => {
    const [a] = m.flows[0]?.steps ?? [];
    expect(a?.nullableString("on_approve")).toEqual({ value: null, entry: a?.entry("on_approve") });
    expect(a?.nullableString("on_kill")?.value).toBe("k");
    expect(a?.string("on_approve")).toBeNull();
    expect(a?.integer("max_iterations")?.value).toBe(3);
    expect(a?.string("skip_if")?.value).toBe("True");
    expect(a?.map("inputs")?.value.get("n")?.name).toBe("n");
  });

  it("never treats 0.2-only keys as valid in a 0.1 document", () => {
    const [s] = steps(
      yaml(
        'version: "0.1"',
        "flows:",
        "  f:",
        "    input: {}",
        "    output: O",
        "    steps: [{id: a, function: w, inputs: {}, skip_if: x, intent: y}]",
      ),
    );
    expect(s?.entry("skip_if")).toBeDefined();
    expect(s?.valid("skip_if")).toBe(false);
    expect(s?.string("skip_if")).toBeNull();
  });

  it("never treats unknown keys as valid", () => {
    const [s] = steps(
      yaml('version: "0.2"', "flows:", "  f: {input: {}, steps: [{id: a, intent: x, bogus: 1}]}"),
    );
    expect(s?.valid("bogus")).toBe(false);
    expect(s?.valid("intent")).toBe(true);
  });
});

describe("steps", () => {
  const flowText = (...stepLines: string[]): string =>
    yaml(
      'version: "0.2"',
      ...FNS,
      "flows:",
      "  sub: {input: {}, steps: [{id: s, intent: x}]}",
      "  f:",
      "    input: {}",
      "    steps:",
      ...stepLines,
    );

  it("skips non-mapping items but keeps their positions as indexes", () => {
    const f = model(
      flowText("      - {id: a, intent: x}", "      - 5", "      - {id: c, intent: x}"),
    ).flowByName.get("f");
    expect(f?.steps.map((s) => [s.id, s.index])).toEqual([
      ["a", 0],
      ["c", 2],
    ]);
    expect(f?.stepsNode?.items.length).toBe(3);
  });

  it("gives ids only for valid strings, and maps each id to its first step", () => {
    const f = model(
      flowText(
        "      - {id: a, intent: x}",
        "      - {id: 1, intent: x}",
        "      - {id: yes, intent: x}",
        "      - {id: a, intent: y}",
        '      - {id: "", intent: x}',
      ),
    ).flowByName.get("f");
    expect(f?.steps.map((s) => s.id)).toEqual(["a", null, null, "a", ""]);
    expect(f?.stepById.get("a")?.index).toBe(0);
    expect([...(f?.stepById.keys() ?? [])]).toEqual(["a", ""]);
    expect(f?.steps.every((s) => s.flow === f)).toBe(true);
  });

  const kinds: readonly [string, string | null, string | null, string | null][] = [
    // step line, kind, function, target
    ["{id: a, function: work}", "function", "work", null],
    ["{id: a, function: calc}", "function", "calc", null],
    ["{id: a, function: approve, on_approve: null, on_kill: null, on_revise: b}", "gate", "approve", null],
    ["{id: a, intent: do it}", "inline", null, null],
    ["{id: a, flow: sub}", "flow", null, "sub"],
    ["{id: a, flow: nowhere}", "flow", null, null],
    ["{id: a, function: missing}", null, null, null],
    ["{id: a, function: broken}", null, "broken", null],
    ["{id: a, function: work, intent: x}", null, null, null],
    ["{id: a}", null, null, null],
    ['{id: a, function: work, intent: ""}', "function", "work", null],
    ['{id: a, function: "", flow: sub}', "flow", null, "sub"],
    ["{id: a, function: 5, intent: x}", null, null, null],
    ["{id: a, function: ~, intent: x}", null, null, null],
    // Two modes (judge and intent): SPEC-STEP-MODE, no kind.
    ["{id: a, judge: {}, intent: x}", null, null, null],
  ];
  for (const [line, kind, fn, target] of kinds) {
    it(`kind of ${line}`, () => {
      const f = model(flowText(`      - ${line}`)).flowByName.get("f");
      const s = f?.steps[0];
      expect(s?.kind ?? null).toBe(kind);
      expect(s?.fn?.name ?? null).toBe(fn);
      expect(s?.target?.name ?? null).toBe(target);
    });
  }

  it("0.1 steps are function steps", () => {
    const text = yaml(
      'version: "0.1"',
      "functions:",
      "  w: {mode: infer, intent: x, input: {}, output: O}",
      "flows:",
      "  f:",
      "    input: {}",
      "    output: O",
      "    steps:",
      "      - {id: a, function: w, inputs: {}}",
      "      - {id: b, function: w, inputs: {}, intent: also}",
      "      - {id: c, intent: only, inputs: {}}",
    );
    const f = model(text).flows[0];
    expect(f?.steps.map((s) => s.kind)).toEqual(["function", "function", null]);
    expect(f?.steps[0]?.fn?.name).toBe("w");
  });

  it("a gate function in a 0.1 document has no mode, so its steps have no kind", () => {
    const text = yaml(
      'version: "0.1"',
      "functions:",
      "  g: {mode: gate, intent: x, input: {}, output: O}",
      "flows:",
      "  f: {input: {}, output: O, steps: [{id: a, function: g, inputs: {}}]}",
    );
    const m = model(text);
    expect(m.functions[0]?.mode).toBeNull();
    expect(m.flows[0]?.steps[0]?.kind).toBeNull();
    expect(m.flows[0]?.steps[0]?.fn?.name).toBe("g");
  });

  it("keeps the steps sequence for anchors even when steps has an invalid item", () => {
    const f = model(flowText("      - 5")).flowByName.get("f");
    expect(f?.valid("steps")).toBe(false);
    expect(f?.stepsNode?.kind).toBe("seq");
    expect(f?.steps).toEqual([]);
  });

  it("has no stepsNode when steps is not a sequence", () => {
    const f = model(yaml('version: "0.2"', "flows:", "  f: {input: {}, steps: {a: 1}}")).flows[0];
    expect(f?.stepsNode).toBeNull();
    expect(f?.steps).toEqual([]);
  });
});
