// Version 0.3 in the structure phase: the version is accepted, the ten new step keys exist only
// from 0.3 on, and their value errors carry the reference's texts (the research notes on the reference,
// section 1.6) at the real path (not the reference's `root` for require).
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../../checker/check-spec";
import { parallel, shown } from "./support";

function schemaErrors(text: string): string[] {
  return checkSpec(text)
    .diagnostics.filter((d) => d.code.startsWith("SCHEMA-"))
    .map((d) => `${d.code} ${d.path}: ${d.message} | ${d.suggestion ?? ""}`);
}

describe("version 0.3", () => {
  it("is accepted; a 0.2 spec with its version bumped stays valid", () => {
    const v02 = [
      'version: "0.2"',
      "functions: {g: {mode: gate}}",
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      "      - {id: a, intent: x, retries: 2, ensure: ['result.n > 0']}",
      "      - {id: b, function: g, on_approve: null, on_revise: a, on_kill: null, depends_on: [a]}",
      "",
    ].join("\n");
    expect(checkSpec(v02).valid).toBe(true);
    const v03 = v02.replace('"0.2"', '"0.3"');
    expect(checkSpec(v03).diagnostics).toEqual(checkSpec(v02).diagnostics);
    expect(checkSpec(v03).ir?.version).toBe("0.3");
  });

  it("an unknown version suggests 0.3, like the reference", () => {
    const d = checkSpec('version: "0.4"\n').diagnostics[0];
    expect([d?.code, d?.message, d?.suggestion]).toEqual([
      "SCHEMA-VERSION-UNKNOWN",
      "Unknown IR version: '0.4'",
      'Use version: "0.3"',
    ]);
  });

  it("in 0.1 and 0.2 the new keys are unknown, with a hint at 0.3", () => {
    const text = [
      'version: "0.2"',
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      "      - {id: a, intent: x, type: inline, source: s, merge: manual}",
      "",
    ].join("\n");
    expect(schemaErrors(text)).toEqual([
      `SCHEMA-UNKNOWN-KEY flows.f.steps.0: Additional properties are not allowed ('type' was unexpected) | 'type' requires version "0.3"`,
      `SCHEMA-UNKNOWN-KEY flows.f.steps.0: Additional properties are not allowed ('source' was unexpected) | 'source' requires version "0.3"`,
      `SCHEMA-UNKNOWN-KEY flows.f.steps.0: Additional properties are not allowed ('merge' was unexpected) | 'merge' requires version "0.3"`,
    ]);
  });
});

describe("value errors of the new keys (reference texts, real paths)", () => {
  const P = "flows.f.steps.1";
  it.each([
    [
      "type: Decompose",
      `SCHEMA-ENUM ${P}.type: 'Decompose' is not one of ['function', 'inline', 'flow', 'decompose', 'parallel_dispatch', 'pipeline', 'quorum', 'race', 'debate'] | Allowed values: ['function', 'inline', 'flow', 'decompose', 'parallel_dispatch', 'pipeline', 'quorum', 'race', 'debate']`,
    ],
    [
      "isolation: docker",
      `SCHEMA-ENUM ${P}.isolation: 'docker' is not one of ['worktree', 'branch', 'none'] | Allowed values: ['worktree', 'branch', 'none']`,
    ],
    [
      "merge: octopus",
      `SCHEMA-ENUM ${P}.merge: 'octopus' is not one of ['sequential_apply', 'manual'] | Allowed values: ['sequential_apply', 'manual']`,
    ],
    ["max_concurrent: 0", `SCHEMA-MINIMUM ${P}.max_concurrent: 0 is less than the minimum of 1`],
    ['max_concurrent: "3"', `SCHEMA-TYPE ${P}.max_concurrent: '3' is not of type 'integer'`],
    ["max_concurrent: true", `SCHEMA-TYPE ${P}.max_concurrent: True is not of type 'integer'`],
    ["task_timeout: 0", `SCHEMA-MINIMUM ${P}.task_timeout: 0 is less than the minimum of 1`],
    ['task_timeout: "10"', `SCHEMA-TYPE ${P}.task_timeout: '10' is not of type 'integer', 'null'`],
    // require: 0 is a stratumc extension (docs/design/concurrency-constructs.md §2): the minimum is 0.
    ["require: -1", `SCHEMA-MINIMUM ${P}.require: -1 is less than the minimum of 0`],
    ['validate: ["x"]', `SCHEMA-TYPE ${P}.validate: ['x'] is not of type 'string'`],
    ["member_contract: 3", `SCHEMA-TYPE ${P}.member_contract: 3 is not of type 'string'`],
    [
      "require: some",
      `SCHEMA-ENUM ${P}.require: 'some' is not one of ['all', 'any'] | Allowed values: ['all', 'any']`,
    ],
    [
      'require: "2"',
      `SCHEMA-ENUM ${P}.require: '2' is not one of ['all', 'any'] | Allowed values: ['all', 'any']`,
    ],
    ["require: true", `SCHEMA-TYPE ${P}.require: True is not valid under any of the given schemas`],
    ["require: null", `SCHEMA-TYPE ${P}.require: None is not valid under any of the given schemas`],
    ["require: 1.5", `SCHEMA-TYPE ${P}.require: 1.5 is not valid under any of the given schemas`],
    ["require: [1]", `SCHEMA-TYPE ${P}.require: [1] is not valid under any of the given schemas`],
    ['capture_diff: "true"', `SCHEMA-TYPE ${P}.capture_diff: 'true' is not of type 'boolean'`],
    ["capture_diff: null", `SCHEMA-TYPE ${P}.capture_diff: None is not of type 'boolean'`],
    ["defer_advance: 1", `SCHEMA-TYPE ${P}.defer_advance: 1 is not of type 'boolean'`],
  ])("%s", (line, expected) => {
    const [got] = schemaErrors(parallel(line));
    // The suggestion is compared only where the reference has a specific one (enum values).
    expect(expected.includes(" | ") ? got : got?.split(" | ")[0]).toBe(expected);
  });

  it("source: 5 is not a string (the step then lacks a usable source: no further report)", () => {
    const text = parallel().replace('source: "$.steps.plan.output.tasks"', "source: 5");
    expect(shown(text)).toEqual([`SCHEMA-TYPE ${P}.source: 5 is not of type 'string'`]);
  });

  it.each([
    ["task_timeout: null"],
    ["max_concurrent: 2.0"],
    ["task_timeout: 1.0"],
    ["require: 2.0"],
    ["require: any"],
    ["isolation: branch"],
  ])("%s is valid", (line) => {
    expect(shown(parallel(line))).toEqual([]);
  });
});
