// Properties of the structure phase, the model and SPEC-OUTPUT-SCHEMA-INVALID on randomly mutated
// valid specs (parseable or not): nothing throws, every range (diagnostics, fix edits) lies inside
// the text, and the result is deterministic.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SpecDiagnostic } from "../../../checker/diagnostic";
import { checkStructure } from "../../../checker/model/check-structure";
import { DiagnosticSink } from "../../../checker/report";
import { OUTPUT_SCHEMA_RULES } from "../../../checker/rules/output-schema/index";
import { runVisitingRules } from "../../../checker/rules/walk";
import { SpecSource } from "../../../checker/source";
import { loadYaml } from "../../../checker/yaml/load";
import { yaml } from "./helpers";

const SEEDS = [
  yaml(
    'version: "0.2"',
    "contracts:",
    "  Out:",
    "    v: {type: string, values: [a, b]}",
    "    xs: {type: array, items: {type: Out}}",
    "functions:",
    "  work: {mode: infer, intent: x, input: {}, output: Out, ensure: [result.v], retries: 2}",
    "  g: {mode: gate, timeout: 60}",
    "workflow: {name: wf, description: d, input: {topic: {type: string}}}",
    "flows:",
    "  wf:",
    "    input: {topic: {type: string}}",
    "    max_rounds: 2",
    "    budget: {ms: 5, usd: 1}",
    "    steps:",
    "      - id: a",
    "        function: work",
    "        inputs: {t: $.input.topic}",
    "        output_schema:",
    "          type: object",
    "          properties:",
    "            v: {type: string, minLength: 1}",
    "      - {id: r, function: g, on_approve: null, on_kill: ~, on_revise: a, policy: flag}",
    "      - id: c",
    "        intent: >-",
    "          do the",
    "          thing",
    "        depends_on:",
    "          - a",
    "        max_iterations: 3",
    "        accumulate: '[1]'",
  ),
  yaml(
    'version: "0.1"',
    "functions:",
    "  w: {mode: compute, intent: x, input: {}, output: O}",
    "flows:",
    "  f:",
    "    input: {}",
    "    output: O",
    "    steps:",
    "      - {id: s, function: w, inputs: {a: $.input.a}, output_schema: {type: [string, 'null']}}",
  ),
];

const TOKENS = [
  "\n",
  "  ",
  "- ",
  ": ",
  "{",
  "}",
  "[",
  "]",
  ",",
  "'",
  '"',
  "~",
  "yes",
  "on:",
  "1:",
  "0.2",
  "-1",
  "2.0",
  "__proto__: 1",
  "guardrails: [x]",
  "type: strin",
  "&a ",
  "*a",
  "<<: {x: 1}",
  "!!float ",
  "2024-01-01",
  "é😀",
  "\r\n",
  "\t",
  "#",
];

type Mutation = (text: string) => string;

const at = (text: string, f: number): number => Math.floor(f * (text.length + 1));

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(...TOKENS)).map(
    ([f, tok]): Mutation =>
      (t) =>
        t.slice(0, at(t, f)) + tok + t.slice(at(t, f)),
  ),
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 12 })).map(
    ([f, n]): Mutation =>
      (t) =>
        t.slice(0, at(t, f)) + t.slice(at(t, f) + n),
  ),
  fc.tuple(fc.nat(), fc.nat()).map(
    ([i, j]): Mutation =>
      (t) => {
        const lines = t.split("\n");
        const line = lines[i % lines.length] ?? "";
        lines.splice(j % (lines.length + 1), 0, line);
        return lines.join("\n");
      },
  ),
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.string({ maxLength: 6 })).map(
    ([f, s]): Mutation =>
      (t) =>
        t.slice(0, at(t, f)) + s + t.slice(at(t, f)),
  ),
);

const mutatedArb = fc
  .tuple(fc.constantFrom(...SEEDS), fc.array(mutationArb, { minLength: 1, maxLength: 5 }))
  .map(([seed, ms]) => ms.reduce((t, m) => m(t), seed));

function runAll(text: string): readonly SpecDiagnostic[] {
  const src = new SpecSource(text);
  const sink = new DiagnosticSink();
  const loaded = loadYaml(src, sink);
  if (!loaded.ok) return [];
  const model = checkStructure(src, loaded.root, sink);
  if (model !== null) {
    runVisitingRules(OUTPUT_SCHEMA_RULES, model, sink);
    // Touch the model the way later phases do.
    for (const flow of model.flows) for (const s of flow.steps) void [s.kind, s.id, s.integer("retries")];
    for (const c of model.contracts) for (const f of c.fields) void f.def?.items?.type;
  }
  return sink.diagnostics;
}

function outside(text: string, d: SpecDiagnostic): string[] {
  const bad: string[] = [];
  const check = (what: string, r: { start: number; end: number }): void => {
    if (!(r.start >= 0 && r.start <= r.end && r.end <= text.length))
      bad.push(`${d.code} ${what} ${r.start}-${r.end}`);
  };
  check("range", d.range);
  for (const e of d.fix?.edits ?? []) check("fix", e.range);
  return bad;
}

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

describe("structure phase properties", () => {
  it("the seeds are structurally valid", () => {
    for (const seed of SEEDS) expect(runAll(seed)).toEqual([]);
  });

  it("never throws on mutated specs; ranges lie inside the text; deterministic", () => {
    fc.assert(
      fc.property(mutatedArb, (text) => {
        const first = runAll(text);
        for (const d of first) expect(outside(text, d)).toEqual([]);
        expect(runAll(text)).toEqual(first);
      }),
      { numRuns: RUNS },
    );
  });

  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        for (const d of runAll(text)) expect(outside(text, d)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });
});
