// pre_merge_verify (0.3): a string or a list of non-empty strings, a JSON Schema `oneOf` in the
// reference, so a list with a bad item is reported at the key with the oneOf message.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";

function spec(version: string, value: string): string {
  return [
    `version: "${version}"`,
    "flows:",
    "  f:",
    "    input: {tasks: {type: array}}",
    "    steps:",
    "      - id: run",
    "        type: parallel_dispatch",
    '        source: "$.input.tasks"',
    '        intent_template: "Do {task.id}"',
    `        pre_merge_verify: ${value}`,
  ].join("\n");
}

function errors(text: string): { code: string; path: string; message: string }[] {
  return checkSpec(text)
    .diagnostics.filter((d) => d.severity === "error")
    .map((d) => ({ code: d.code, path: d.path, message: d.message }));
}

describe("pre_merge_verify", () => {
  it("accepts one command, a list of commands and an empty list", () => {
    expect(errors(spec("0.3", '"npm test"'))).toEqual([]);
    expect(errors(spec("0.3", '["npm run lint", "npm test"]'))).toEqual([]);
    expect(errors(spec("0.3", "[]"))).toEqual([]);
  });

  it("reports a list with an empty command at the key, as the reference's oneOf", () => {
    expect(errors(spec("0.3", '["npm test", ""]'))).toEqual([
      {
        code: "SCHEMA-TYPE",
        path: "flows.f.steps.0.pre_merge_verify",
        message: "['npm test', ''] is not valid under any of the given schemas",
      },
    ]);
  });

  it("reports a value that is neither a string nor a list", () => {
    expect(errors(spec("0.3", "3"))).toEqual([
      {
        code: "SCHEMA-TYPE",
        path: "flows.f.steps.0.pre_merge_verify",
        message: "3 is not valid under any of the given schemas",
      },
    ]);
    expect(errors(spec("0.3", '""')).map((e) => e.code)).toEqual(["SCHEMA-TYPE"]);
  });

  it("is an unknown key before 0.3", () => {
    const text = [
      'version: "0.2"',
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      "      - id: a",
      "        intent: x",
      '        pre_merge_verify: "npm test"',
    ].join("\n");
    expect(errors(text).map((e) => e.code)).toEqual(["SCHEMA-UNKNOWN-KEY"]);
  });
});
