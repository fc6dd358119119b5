// Parsing of `$` references in step inputs (docs/reference/language.md §8, docs/reference/runtime.md §3.3).
import { describe, expect, it } from "vitest";
import { malformedReferenceMessage } from "../../../checker/messages";
import { isReference, parseInputReference } from "../../../checker/spec-expr/input-refs";

describe("parseInputReference", () => {
  it("parses $.input.<name> with field segments and their spans in the string", () => {
    expect(parseInputReference("$.input.topic.title.0")).toEqual({
      scope: "input",
      name: { name: "topic", start: 8, end: 13 },
      fields: [
        { name: "title", start: 14, end: 19 },
        { name: "0", start: 20, end: 21 },
      ],
    });
  });

  it("parses $.steps.<id>.output with `output` implied", () => {
    expect(parseInputReference("$.steps.draft.output")).toEqual({
      scope: "steps",
      name: { name: "draft", start: 8, end: 13 },
      fields: [],
    });
    expect(parseInputReference("$.steps.a.output.x")).toEqual({
      scope: "steps",
      name: { name: "a", start: 8, end: 9 },
      fields: [{ name: "x", start: 17, end: 18 }],
    });
  });

  it("keeps characters the expression grammar would not (segments are split on '.' only)", () => {
    expect(parseInputReference("$.input.a b")?.name).toEqual({ name: "a b", start: 8, end: 11 });
  });

  const malformed: [string, string][] = [
    ["$", "Empty $ reference: '$'"],
    ["$.", "Empty $ reference: '$.'"],
    ["$.input", "$.input requires a field name: '$.input'"],
    ["$.input.", "$.input requires a field name: '$.input.'"],
    ["$.steps", "$.steps requires $.steps.<id>.output: '$.steps'"],
    ["$.steps.x", "$.steps requires $.steps.<id>.output: '$.steps.x'"],
    ["$.steps..output", "$.steps requires $.steps.<id>.output: '$.steps..output'"],
    ["$.steps.x.result", "Expected '$.steps.<id>.output[.<field>]', got '$.steps.x.result'"],
    ["$.foo", "Unknown $ prefix 'foo' in '$.foo'"],
    ["$5 budget", "Unknown $ prefix ' budget' in '$5 budget'"],
    ["$xinput.a", "Unknown $ prefix 'input' in '$xinput.a'"],
  ];
  for (const [ref, message] of malformed) {
    it(`${JSON.stringify(ref)} is malformed`, () => {
      expect(isReference(ref)).toBe(true);
      expect(parseInputReference(ref)).toBeNull();
      expect(malformedReferenceMessage(ref)).toBe(message);
    });
  }

  it("a value is a reference exactly when it starts with $", () => {
    expect(isReference("see $.input.x")).toBe(false);
    expect(isReference("")).toBe(false);
    expect(isReference("$.input.x")).toBe(true);
  });

  it("an empty field segment makes the reference malformed", () => {
    expect(parseInputReference("$.input.x.")).toBeNull();
    expect(parseInputReference("$.steps.a.output..b")).toBeNull();
  });
});
