// The `properties` block in the checker: its expressions are typed over the property state of
// their flow (step and gate ids, the output contracts, the flow's inputs), problems are reported
// at the offending segment, the checked IR holds each property, `check --portable` reports the
// block, and version 0.1 does not have it.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { typeToString } from "../../../stdlib/types/print";

const SPEC = `version: "0.2"
contracts:
  Build:
    artifact: {type: string}
    size: {type: integer, required: false}
functions:
  build: {mode: infer, intent: "Build", input: {version: {type: string}}, output: Build}
  sign: {mode: gate}
flows:
  release:
    input: {version: {type: string}}
    max_rounds: 2
    steps:
      - {id: build, function: build, inputs: {version: "$.input.version"}}
      - {id: sign_off, function: sign, on_approve: ~, on_revise: build, on_kill: ~}
properties:
`;

function check(properties: string) {
  return checkSpec(`${SPEC}${properties}`);
}

function codes(properties: string): string[] {
  return check(properties).diagnostics.map((d) => `${d.code} ${d.line}:${d.column}-${d.end_column}`);
}

describe("properties in the checker", () => {
  it("types each state path: statuses and outcomes as literal unions, attempts and round as int, outputs by contract", () => {
    const r = check(`  p:
    flow: release
    always: "$.steps.build.status != 'failed' and $.steps.build.attempts <= 3 and $.flow.round < 3 and ($.gates.sign_off.outcome != 'kill' or $.flow.status == 'killed') and ($.steps.build.output.size is None or $.steps.build.output.size > 0) and $.input.version != ''"
`);
    expect(r.diagnostics).toEqual([]);
    const e = r.expressions?.properties[0]?.expressions[0];
    const shown = new Map<string, string>();
    for (const [node, type] of e?.types ?? [])
      if (node.kind === "Path") shown.set(node.text, typeToString(type));
    expect(Object.fromEntries(shown)).toEqual({
      "$.steps.build.status": "str{'pending','running','done','failed','skipped'}",
      "$.steps.build.attempts": "int",
      "$.flow.round": "int",
      "$.gates.sign_off.outcome": "str{'approve','revise','kill'} | none",
      "$.flow.status": "str{'running','complete','failed','killed'}",
      "$.steps.build.output.size": "int | none",
      "$.input.version": "str | none",
    });
  });

  it("reports unknown steps, gates, fields and inputs at the segment, with did-you-mean", () => {
    const r = check(`  p:
    flow: release
    never: "$.steps.buld.status == 'done' or $.gates.build.outcome == 'kill' or $.flow.stauts == 'failed' or $.steps.build.output.artefact == '' or $.input.versoin == ''"
`);
    expect(r.diagnostics.map((d) => [d.code, d.column, d.end_column, d.suggestion ?? ""])).toEqual([
      ["SPEC-REF-UNKNOWN-STEP", 21, 25, "Did you mean 'build'?"],
      // `build` is a step, not a gate: the gates are the candidates, and none is close.
      ["SPEC-REF-UNKNOWN-STEP", 54, 59, ""],
      ["SPEC-REF-UNKNOWN-FIELD", 88, 94, "Did you mean 'status'?"],
      ["SPEC-REF-UNKNOWN-FIELD", 131, 139, "Did you mean 'artifact'?"],
      ["SPEC-REF-UNDECLARED-INPUT", 157, 164, "Did you mean 'version'?"],
    ]);
  });

  it("reports a condition that is not a boolean, and names bound elsewhere", () => {
    expect(
      codes(`  p:
    flow: release
    never: "$.steps.build.attempts"
  q:
    flow: release
    always: "result.ok"
`),
    ).toEqual(["SPEC-PROPERTY-NOT-BOOL 19:12-36", "EXPR-NAME-UNAVAILABLE 22:14-20"]);
  });

  it("puts each valid property in the IR, frozen", () => {
    const ir = check(`  approved:
    flow: release
    leads_to: {from: "$.gates.sign_off.outcome == 'revise'", to: "$.steps.build.status == 'done'"}
`).ir;
    const p = ir?.properties.get("approved");
    expect(p).toMatchObject({ name: "approved", flow: "release", kind: "leads_to" });
    expect(p?.condition.text).toBe("$.gates.sign_off.outcome == 'revise'");
    expect(p?.to?.text).toBe("$.steps.build.status == 'done'");
    expect(Object.isFrozen(p)).toBe(true);
    const properties = ir?.properties as Map<string, unknown> | undefined;
    expect(() => properties?.set("x", p)).toThrow();
  });

  it("is a stratumc extension: check --portable reports the block; 0.1 does not know the key", () => {
    const text = `${SPEC}  p:\n    flow: release\n    eventually: "$.flow.status == 'complete'"\n`;
    const portable = checkSpec(text, { portable: true }).diagnostics;
    expect(portable.map((d) => [d.code, d.line, d.message])).toEqual([
      [
        "SPEC-NOT-PORTABLE",
        16,
        "'properties' (the top-level block) is stratumc-only: stratum-mcp 0.2.69 rejects it",
      ],
    ]);
    const v01 = checkSpec(text.replace('version: "0.2"', 'version: "0.1"')).diagnostics.map((d) => d.code);
    expect(v01).toContain("SCHEMA-UNKNOWN-KEY");
  });
});
