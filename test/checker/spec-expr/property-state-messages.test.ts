// The messages of a property's mistaken state paths say what the path is: a step that is not a
// gate under `$.gates`, and the fields of the state's records (they are no contracts).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/index";

const SPEC = `version: "0.2"
functions:
  g: {mode: gate}
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "Work"
      - id: g
        function: g
        on_approve: null
        on_revise: a
        on_kill: null
properties:
  p1:
    flow: main
    always: "$.gates.a.outcome != 'kill'"
  p2:
    flow: main
    always: "$.flow.state != 'x'"
  p3:
    flow: main
    always: "$.steps.a.stat != 'x'"
`;

describe("messages of mistaken property-state paths", () => {
  it("name the gates, and the state record's fields", () => {
    const messages = checkSpec(SPEC).diagnostics.map((d) => [d.code, d.message]);
    expect(messages).toEqual([
      [
        "SPEC-REF-UNKNOWN-STEP",
        "Reference '$.gates.a.outcome': 'a' is a step of flow 'main', not a gate (gates: g)",
      ],
      [
        "SPEC-REF-UNKNOWN-FIELD",
        "Reference '$.flow.state': '$.flow' has no field 'state' (it has status, round)",
      ],
      [
        "SPEC-REF-UNKNOWN-FIELD",
        "Reference '$.steps.a.stat': '$.steps.a' has no field 'stat' (it has status, attempts, output)",
      ],
    ]);
  });

  it("the blind spec's gate mistake says the step is no gate", () => {
    const text = readFileSync(
      resolve(import.meta.dirname, "../../fuzzer/blind-properties/typo-props/spec.stratum.yaml"),
      "utf8",
    );
    const d = checkSpec(text).diagnostics.find((x) => x.message.includes("$.gates.build"));
    expect(d?.message).toContain("'build' is a step of flow");
  });
});
