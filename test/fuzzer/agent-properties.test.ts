// Property: over generated step shapes (contract fields of every kind, `values`, optional fields,
// output_schema properties with patterns, bounds and enums, a reasoning_template with the artifact
// declared in various ways, ensures that convert, test membership and compare sizes), the derived
// candidates are never empty, and every candidate the solver calls conforming passes the
// interpreter's own checks: the contract, the output_schema and the certificate.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { certificateViolations, checkContract, checkOutputSchema } from "../../interpreter/index";
import { agentFor } from "./support/agent";

const KINDS = ["string", "integer", "number", "boolean", "array", "object"] as const;

const fieldArb = fc.record({
  kind: fc.constantFrom(...KINDS),
  required: fc.boolean(),
  values: fc.boolean(),
});

const schemaPropArb = fc.constantFrom(
  '{ type: string, pattern: "^[a-z]{2,4}-[0-9]+$" }',
  '{ type: string, pattern: "^[0-9]+$", maxLength: 6 }',
  "{ type: string, minLength: 3, maxLength: 5 }",
  "{ type: integer, minimum: 2, maximum: 7 }",
  "{ type: number, exclusiveMinimum: 0, maximum: 1 }",
  '{ enum: ["low", "high", 3] }',
  "{ type: array, minItems: 2, items: { type: string } }",
  "{ type: boolean }",
);

const ARTIFACTS = [
  null,
  "{ type: string }",
  "{ type: array, items: { type: string } }",
  "{ type: integer }",
  "{ type: string, required: false }",
] as const;

function valuesOf(kind: string): string {
  if (kind === "string") return ', values: ["x", "12", "y z"]';
  if (kind === "integer") return ", values: [1, 5, 9]";
  return "";
}

function ensuresFor(name: string, kind: string): string[] {
  switch (kind) {
    case "string":
      return [`int(result.${name}) >= 1`, `'z' in result.${name}`, `len(result.${name}) == 3`];
    case "integer":
    case "number":
      return [`result.${name} > 4`];
    case "array":
      return [`len(result.${name}) == 2`, `'k' in result.${name}`];
    case "boolean":
      return [`result.${name}`];
    default:
      return [];
  }
}

const specArb = fc
  .record({
    fields: fc.array(fieldArb, { minLength: 1, maxLength: 4 }),
    schema: fc.array(schemaPropArb, { maxLength: 3 }),
    template: fc.boolean(),
    artifact: fc.constantFrom(...ARTIFACTS),
    ensurePicks: fc.array(fc.nat(), { maxLength: 3 }),
  })
  .map(({ fields, schema, template, artifact, ensurePicks }) => {
    const contract = fields.map(
      (f, i) =>
        `    f${i}: { type: ${f.kind}${f.values ? valuesOf(f.kind) : ""}${f.required ? "" : ", required: false"} }`,
    );
    if (artifact !== null) contract.push(`    artifact: ${artifact}`);
    const pool = fields.flatMap((f, i) => ensuresFor(`f${i}`, f.kind));
    const ensures = pool.length === 0 ? [] : ensurePicks.map((n) => pool[n % pool.length]!);
    const props = schema.map((p, i) => `            p${i}: ${p}`);
    const lines = [
      'version: "0.2"',
      "contracts:",
      "  Out:",
      ...contract,
      "flows:",
      "  main:",
      "    input: {}",
      "    steps:",
      "      - id: s",
      '        intent: "Do it"',
      "        inputs: {}",
      "        output_contract: Out",
    ];
    if (props.length > 0)
      lines.push(
        "        output_schema:",
        "          type: object",
        `          required: [${schema.map((_, i) => `p${i}`).join(", ")}]`,
        "          properties:",
        ...props,
      );
    if (template) lines.push("        reasoning_template: {require_citations: true}");
    if (ensures.length > 0)
      lines.push("        ensure:", ...ensures.map((e) => `          - ${JSON.stringify(e)}`));
    return `${lines.join("\n")}\n`;
  });

describe("derived candidates (property)", () => {
  it("are never empty, and every one called conforming passes the contract, the schema and the certificate", () => {
    fc.assert(
      fc.property(specArb, fc.nat(), (text, seed) => {
        const agent = agentFor(text, seed);
        const step = agent.step("s");
        const contract = agent.shapes.contractOf(step)!;
        const derived = agent.solver.conforming(step).slice(0, agent.solver.derivedCount(step));
        expect(agent.solver.derived.results(step).length).toBeGreaterThan(0);
        const template = step.reasoningTemplate ?? null;
        let certifiable = false;
        for (const c of derived) {
          expect(checkContract(c.value, contract, agent.spec)).toEqual([]);
          if (step.outputSchema !== null) expect(checkOutputSchema(c.value, step.outputSchema)).toEqual([]);
          if (template !== null && certificateViolations(template, c.value).length === 0) certifiable = true;
        }
        // Some placement of the certificate always fits these shapes (artifact, list or reasoning).
        if (template !== null && derived.length > 0) expect(certifiable).toBe(true);
      }),
      { numRuns: 60, seed: 5 },
    );
  });
});
