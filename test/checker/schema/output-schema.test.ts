// SPEC-OUTPUT-SCHEMA-INVALID (docs/reference/language.md §9.5.4): output_schema checked against the draft 2020-12
// meta-schema; detail texts, the offending sub-node as anchor (from the key line when below it),
// and the steps that are not checked. Also: the generated validator is up to date.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DiagnosticSink } from "../../../checker/report";
import { OUTPUT_SCHEMA_RULES } from "../../../checker/rules/output-schema/index";
import { SPEC_OUTPUT_SCHEMA_INVALID } from "../../../checker/rules/output-schema/SPEC-OUTPUT-SCHEMA-INVALID";
import { runVisitingRules } from "../../../checker/rules/walk";
import { runStructure, type Shown, show, yaml } from "./helpers";

function check(text: string): { structure: readonly Shown[]; rule: readonly Shown[] } {
  const r = runStructure(text);
  const sink = new DiagnosticSink();
  if (r.model !== null) runVisitingRules(OUTPUT_SCHEMA_RULES, r.model, sink);
  return { structure: r.shown, rule: sink.diagnostics.map((d) => show(r.src, d)) };
}

/** A 0.2 inline step `a` whose output_schema is the given block lines (indented by 10). */
function withSchema(...lines: string[]): string {
  return yaml(
    'version: "0.2"',
    "flows:",
    "  f:",
    "    input: {}",
    "    steps:",
    "      - id: a",
    "        intent: x",
    "        output_schema:",
    ...lines.map((l) => `          ${l}`),
  );
}

const invalid = (detail: string, at: string, step = "a", flow = "f"): Shown => ({
  code: "SPEC-OUTPUT-SCHEMA-INVALID",
  path: `flows.${flow}.steps.${step}.output_schema`,
  message: `Step '${step}' output_schema is not a valid JSON Schema: ${detail}`,
  at,
});

describe("SPEC-OUTPUT-SCHEMA-INVALID", () => {
  it("is a contract-family semantic error", () => {
    expect(SPEC_OUTPUT_SCHEMA_INVALID.family).toBe("contract");
    expect(SPEC_OUTPUT_SCHEMA_INVALID.errorType).toBe("ir_semantic_error");
    expect(SPEC_OUTPUT_SCHEMA_INVALID.severity).toBe("error");
  });

  const cases: readonly [string, string, readonly Shown[]][] = [
    [
      "a valid schema",
      withSchema(
        "type: object",
        "required: [name, tags]",
        "properties:",
        "  name: {type: string, minLength: 1, pattern: '^[a-z]+$'}",
        "  tags: {type: array, items: {type: string}, uniqueItems: true}",
        "  any: true",
        "  n: {type: [integer, 'null'], minimum: 0}",
        "additionalProperties: false",
        "$defs: {x: {enum: [a, 1, null]}}",
      ),
      [],
    ],
    [
      "an unknown type name deep inside: from the output_schema key line to the value",
      withSchema("type: object", "properties:", "  name: {type: strin}"),
      [invalid("'strin' is not a valid type", "8:9-11:31")],
    ],
    [
      "an unknown type name in a type list",
      withSchema("type: [string, strin]"),
      [invalid("'strin' is not a valid type", "8:9-9:31")],
    ],
    ["a number as type", withSchema("type: 5"), [invalid("5 is not a valid type", "8:9-9:18")]],
    [
      "a repeated type",
      withSchema("type: [string, string]"),
      [invalid("['string', 'string'] has non-unique elements", "8:9-9:33")],
    ],
    ["an empty type list", withSchema("type: []"), [invalid("[] should be non-empty", "8:9-9:19")]],
    [
      "a negative minLength",
      withSchema("{type: object, properties: {n: {minLength: -1}}}"),
      [invalid("-1 is less than the minimum of 0", "8:9-9:56")],
    ],
    [
      "properties given as a string",
      withSchema("properties: x"),
      [invalid("'x' is not of type 'object'", "8:9-9:24")],
    ],
    [
      "a property schema that is a number",
      withSchema("properties: {a: 5}"),
      [invalid("5 is not of type 'object', 'boolean'", "8:9-9:28")],
    ],
    [
      "a pattern that is not a regex",
      withSchema('pattern: "("'),
      [invalid("'(' is not a 'regex'", "8:9-9:23")],
    ],
    [
      "a patternProperties key that is not a regex: the key is the anchor",
      withSchema('patternProperties: {"(": {}}'),
      [invalid("'(' is not a 'regex'", "8:9-9:34")],
    ],
    [
      "a repeated required name",
      withSchema("required: [a, a]"),
      [invalid("['a', 'a'] has non-unique elements", "8:9-9:27")],
    ],
    ["an empty anyOf", withSchema("anyOf: []"), [invalid("[] should be non-empty", "8:9-9:20")]],
    ["enum given as a string", withSchema("enum: x"), [invalid("'x' is not of type 'array'", "8:9-9:18")]],
    [
      "an $id with a fragment",
      withSchema('$id: "a#b"'),
      [invalid("'a#b' does not match '^[^#]*#?$'", "8:9-9:21")],
    ],
    [
      "an empty value: the anchor ends at its key",
      withSchema("minLength:"),
      [invalid("None is not of type 'integer'", "8:9-9:20")],
    ],
    [
      "on the key's line (flow style): exactly the offending node",
      yaml(
        'version: "0.2"',
        "flows:",
        "  f:",
        "    input: {}",
        "    steps:",
        "      - {id: b, intent: x, output_schema: {type: object, properties: {v: {type: strin}}}}",
      ),
      [invalid("'strin' is not a valid type", "6:81-6:86", "b")],
    ],
    [
      "a function step and a 0.1 step are checked too",
      yaml(
        'version: "0.1"',
        "functions:",
        "  w: {mode: infer, intent: x, input: {}, output: O}",
        "flows:",
        "  g:",
        "    input: {}",
        "    output: O",
        "    steps:",
        "      - {id: s, function: w, inputs: {}, output_schema: {maxItems: -2}}",
      ),
      [invalid("-2 is less than the minimum of 0", "9:68-9:70", "s", "g")],
    ],
  ];
  for (const [name, text, expected] of cases) {
    it(name, () => {
      const { structure, rule } = check(text);
      expect(structure).toEqual([]);
      expect(rule).toEqual(expected);
    });
  }

  it("skips gate steps (SPEC-GATE-OUTPUT-SCHEMA covers them)", () => {
    const text = yaml(
      'version: "0.2"',
      "functions: {g: {mode: gate}}",
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      "      - {id: a, intent: x}",
      "      - {id: r, function: g, on_approve: ~, on_kill: ~, on_revise: a, output_schema: {type: strin}}",
    );
    expect(check(text)).toEqual({ structure: [], rule: [] });
  });

  it("skips steps without a valid id, and output_schemas with structural errors", () => {
    const text = yaml(
      'version: "0.2"',
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      "      - {id: 5, intent: x, output_schema: {type: strin}}",
      "      - {id: b, intent: x, output_schema: [type, strin]}",
      "      - {id: c, intent: x, output_schema: {type: strin, properties: {on: {}}}}",
    );
    const { structure, rule } = check(text);
    expect(structure.map((d) => d.code)).toEqual(["SCHEMA-TYPE", "SCHEMA-TYPE", "SCHEMA-KEY-NOT-STRING"]);
    expect(rule).toEqual([]);
  });

  it("handles schemas nested as deep as the loader allows", () => {
    let deep = "{type: strin}";
    for (let i = 0; i < 95; i++) deep = `{type: object, properties: {a: ${deep}}}`;
    const text = yaml(
      'version: "0.2"',
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      `      - {id: a, intent: x, output_schema: ${deep}}`,
    );
    const col = text.split("\n")[5]?.indexOf("strin") ?? -1;
    expect(check(text)).toEqual({
      structure: [],
      rule: [invalid("'strin' is not a valid type", `6:${col + 1}-6:${col + 6}`)],
    });
  });

  it("checks steps of every flow, in order", () => {
    const text = yaml(
      'version: "0.2"',
      "flows:",
      "  f: {input: {}, steps: [{id: a, intent: x, output_schema: {type: x}}, {id: b, intent: x, output_schema: {type: y}}]}",
      "  g: {input: {}, steps: [{id: a, intent: x, output_schema: {minimum: z}}]}",
    );
    expect(check(text).rule.map((d) => [d.path, d.message.split(": ")[1]])).toEqual([
      ["flows.f.steps.a.output_schema", "'x' is not a valid type"],
      ["flows.f.steps.b.output_schema", "'y' is not a valid type"],
      ["flows.g.steps.a.output_schema", "'z' is not of type 'number'"],
    ]);
  });
});

describe("the generated meta-schema validator", () => {
  it("is what the generator script produces now (regenerate with node scripts/gen-output-schema-validator.mjs)", () => {
    const fresh = execFileSync(process.execPath, ["scripts/gen-output-schema-validator.mjs", "--stdout"], {
      encoding: "utf8",
    });
    const committed = readFileSync("checker/schema/generated/meta-schema-validator.js", "utf8");
    expect(committed === fresh).toBe(true);
    expect(committed.startsWith("// generated — do not edit.")).toBe(true);
    expect(committed).not.toContain("require(");
  });
});
