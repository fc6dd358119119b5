// The editor JSON Schema (checker/schema/json-schema.ts): a valid draft 2020-12 schema that accepts
// what the structure phase accepts and rejects what it rejects (except what JSON cannot express:
// non-string keys, which become strings in JSON).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import type { SpecDiagnostic } from "../../../checker/diagnostic";
import { DiagnosticSink } from "../../../checker/report";
import { specJsonSchema } from "../../../checker/schema/json-schema";
import { SHAPES } from "../../../checker/schema/spec-schema";
import { SpecSource } from "../../../checker/source";
import { loadYaml } from "../../../checker/yaml/load";
import { toJson } from "../../../checker/yaml/to-json";
import { runStructure, yaml } from "./helpers";
import { readValidationCases } from "./validation-cases";

const schema = specJsonSchema();
const ajv = new Ajv2020({ strict: true, allErrors: true });
const validate = ajv.compile(schema);

/** The loaded document as JSON, or undefined when the YAML does not load. */
function asJson(text: string): unknown {
  const src = new SpecSource(text);
  const loaded = loadYaml(src, new DiagnosticSink());
  return loaded.ok ? toJson(loaded.root) : undefined;
}

function accepts(text: string): boolean {
  return validate(asJson(text));
}

const VALID = [
  yaml('version: "0.1"'),
  yaml(
    'version: "0.1"',
    "contracts: {Out: {v: {type: string}}}",
    "functions:",
    "  w: {mode: compute, intent: x, input: {}, output: Out, ensure: [result.v], retries: 2, budget: {ms: 1}, model: m}",
    "flows:",
    "  f:",
    "    input: {a: {type: string}}",
    "    output: Out",
    "    budget: {usd: 0.5}",
    "    steps:",
    "      - {id: s, function: w, inputs: {a: $.input.a}, depends_on: [], output_schema: {type: object}}",
  ),
  yaml(
    'version: "0.2"',
    "contracts:",
    "  Out:",
    "    v: {type: string, values: [a, b], required: false, description: d, note: n}",
    "    xs: {type: array, items: {type: Out}}",
    "functions:",
    "  work: {mode: infer, output: Out, retries: 2.0}",
    "  g: {mode: gate, timeout: 60}",
    "workflow: {name: wf-1, description: d, input: {topic: {type: string, required: true, default: x, ui: y}}}",
    "flows:",
    "  wf-1:",
    "    input: {topic: {}}",
    "    max_rounds: 2",
    "    steps:",
    "      - {id: a, function: work, agent: x}",
    "      - {id: r, function: g, on_approve: null, on_kill: ~, on_revise: a, policy: flag, policy_fallback: skip}",
    "      - {id: c, intent: x, ensure: [result.v], retries: 1, output_contract: Out, model: m, budget: {ms: 1}, max_iterations: 3, exit_criterion: 'True', accumulate: '[1]', accumulate_key: item, on_fail: a, next: d, skip_if: 'False', skip_reason: s}",
    "      - {id: d, flow: sub}",
    "  sub: {input: {}, steps: [{id: s, intent: x}]}",
  ),
  yaml(
    'version: "0.3"',
    "contracts: {TaskGraph: {tasks: {type: array}}}",
    "flows:",
    "  f:",
    "    input: {}",
    "    steps:",
    "      - {id: d, type: decompose, agent: claude, intent: plan, output_contract: TaskGraph}",
    "      - {id: p, type: parallel_dispatch, source: $.steps.d.output.tasks, intent_template: 'do {task.id}', max_concurrent: 2.0, isolation: none, require: 2, merge: manual, task_timeout: null, capture_diff: false, defer_advance: true, task_reasoning_template: {require_citations: false}}",
    "      - {id: q, type: parallel_dispatch, source: $.steps.d.output.tasks, intent_template: x, require: any, task_timeout: 60}",
  ),
];

const INVALID: readonly [string, string][] = [
  ["missing version", yaml("flows: {}")],
  ["version 0.4", yaml('version: "0.4"')],
  [
    "a 0.3 step key in 0.2",
    yaml('version: "0.2"', "flows: {f: {input: {}, steps: [{id: a, type: decompose, intent: x}]}}"),
  ],
  [
    "a bad step type",
    yaml('version: "0.3"', "flows: {f: {input: {}, steps: [{id: a, type: Decompose, intent: x}]}}"),
  ],
  [
    "isolation docker",
    yaml('version: "0.3"', "flows: {f: {input: {}, steps: [{id: a, isolation: docker}]}}"),
  ],
  ["require -1", yaml('version: "0.3"', "flows: {f: {input: {}, steps: [{id: a, require: -1}]}}")],
  ["require some", yaml('version: "0.3"', "flows: {f: {input: {}, steps: [{id: a, require: some}]}}")],
  ["require true", yaml('version: "0.3"', "flows: {f: {input: {}, steps: [{id: a, require: true}]}}")],
  ["require 1.5", yaml('version: "0.3"', "flows: {f: {input: {}, steps: [{id: a, require: 1.5}]}}")],
  ["task_timeout 0", yaml('version: "0.3"', "flows: {f: {input: {}, steps: [{id: a, task_timeout: 0}]}}")],
  [
    "task_timeout as a string",
    yaml('version: "0.3"', "flows: {f: {input: {}, steps: [{id: a, task_timeout: '10'}]}}"),
  ],
  [
    "capture_diff as a string",
    yaml('version: "0.3"', "flows: {f: {input: {}, steps: [{id: a, capture_diff: 'true'}]}}"),
  ],
  ["unquoted version", yaml("version: 0.2")],
  ["an unknown top-level key", yaml('version: "0.2"', "bogus: 1")],
  ["the workflow block in 0.1", yaml('version: "0.1"', "workflow: {name: x, description: y, input: {}}")],
  [
    "a 0.2 step key in 0.1",
    yaml(
      'version: "0.1"',
      "flows: {f: {input: {}, output: O, steps: [{id: a, function: w, inputs: {}, skip_if: x}]}}",
    ),
  ],
  [
    "a 0.1 step without inputs",
    yaml('version: "0.1"', "flows: {f: {input: {}, output: O, steps: [{id: a, function: w}]}}"),
  ],
  ["a bad mode", yaml('version: "0.2"', "functions: {w: {mode: think}}")],
  [
    "a 0.1 gate function",
    yaml('version: "0.1"', "functions: {g: {mode: gate, intent: x, input: {}, output: O}}"),
  ],
  ["a 0.2 infer function without output", yaml('version: "0.2"', "functions: {w: {mode: infer}}")],
  ["retries 0", yaml('version: "0.2"', "functions: {w: {mode: infer, output: O, retries: 0}}")],
  ["a negative usd", yaml('version: "0.2"', "functions: {w: {mode: infer, output: O, budget: {usd: -1}}}")],
  [
    "max_tokens 0",
    yaml('version: "0.2"', "functions: {w: {mode: infer, output: O, budget: {max_tokens: 0}}}"),
  ],
  ["empty steps", yaml('version: "0.2"', "flows: {f: {input: {}, steps: []}}")],
  ["a step without id", yaml('version: "0.2"', "flows: {f: {input: {}, steps: [{intent: x}]}}")],
  [
    "an empty step guardrail",
    yaml('version: "0.2"', "flows: {f: {input: {}, steps: [{id: a, intent: x, guardrails: ['']}]}}"),
  ],
  [
    "a bad policy",
    yaml('version: "0.2"', "flows: {f: {input: {}, steps: [{id: a, function: g, policy: auto}]}}"),
  ],
  ["next: null", yaml('version: "0.2"', "flows: {f: {input: {}, steps: [{id: a, intent: x, next: null}]}}")],
  [
    "a numeric input value",
    yaml('version: "0.2"', "flows: {f: {input: {}, steps: [{id: a, intent: x, inputs: {n: 5}}]}}"),
  ],
  [
    "a workflow name with capitals",
    yaml('version: "0.2"', "workflow: {name: My_WF, description: d, input: {}}"),
  ],
  [
    "an empty workflow description",
    yaml('version: "0.2"', 'workflow: {name: wf, description: "", input: {}}'),
  ],
  [
    "a workflow input type",
    yaml('version: "0.2"', "workflow: {name: wf, description: d, input: {a: {type: str}}}"),
  ],
  ["a contract field without type", yaml('version: "0.2"', "contracts: {Out: {v: {description: x}}}")],
  [
    "required: yes is fine but required: 'yes' is not",
    yaml('version: "0.2"', "contracts: {Out: {v: {type: string, required: 'yes'}}}"),
  ],
];

describe("specJsonSchema", () => {
  it("is a draft 2020-12 schema that ajv compiles in strict mode", () => {
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(typeof schema.title).toBe("string");
    expect(ajv.validateSchema(schema)).toBe(true);
  });

  it("describes every key of every mapping kind, in every version", () => {
    const defs = schema.$defs as Record<string, { properties: Record<string, { description?: string }> }>;
    for (const shape of Object.values(SHAPES)) {
      const keys03 = Object.keys(defs[`v0.3-${shape.name}`]?.properties ?? {});
      expect(keys03).toEqual(shape.keys.map((k) => k.name));
      for (const key of keys03)
        expect(defs[`v0.3-${shape.name}`]?.properties[key]?.description).toMatch(/\S/);
      const keys02 = Object.keys(defs[`v0.2-${shape.name}`]?.properties ?? {});
      expect(keys02).toEqual(shape.keys.filter((k) => k.since !== "0.3").map((k) => k.name));
      const keys01 = Object.keys(defs[`v0.1-${shape.name}`]?.properties ?? {});
      expect(keys01).toEqual(shape.keys.filter((k) => k.since === undefined).map((k) => k.name));
    }
  });

  it("is a fresh object on every call (callers may mutate it)", () => {
    expect(specJsonSchema()).not.toBe(schema);
    expect(JSON.stringify(specJsonSchema())).toBe(JSON.stringify(schema));
  });

  it.each(VALID.map((t, i) => [i, t]))("accepts valid spec %i", (_i, text) => {
    expect(runStructure(text).shown).toEqual([]);
    expect(accepts(text)).toBe(true);
  });

  it.each(INVALID)("rejects: %s", (_name, text) => {
    expect(runStructure(text).shown.length).toBeGreaterThan(0);
    expect(accepts(text)).toBe(false);
  });

  it("accepts every example that the structure phase accepts", () => {
    const dir = "examples";
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".stratum.yaml"),
    );
    let checked = 0;
    for (const file of files) {
      const text = readFileSync(join(dir, file), "utf8");
      const run = runStructure(text);
      if (!run.loaded || run.shown.length > 0) continue;
      checked++;
      expect([file, accepts(text)]).toEqual([file, true]);
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("agrees with the structure phase on every validation.jsonl case", () => {
    // Non-string keys are the one thing JSON cannot express (they become strings in JSON).
    const jsonExpressible = (d: SpecDiagnostic): boolean => d.code !== "SCHEMA-KEY-NOT-STRING";
    let compared = 0;
    for (const c of readValidationCases()) {
      const run = runStructure(c.yaml);
      if (!run.loaded) continue;
      const structural = run.raw.filter(jsonExpressible);
      if (structural.length < run.raw.length && structural.length === 0) continue;
      compared++;
      expect([c.name, accepts(c.yaml)]).toEqual([c.name, structural.length === 0]);
    }
    expect(compared).toBeGreaterThan(140);
  });
});
