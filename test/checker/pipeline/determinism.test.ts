// Checking is deterministic: the same text gives the same public output and the same IR, whether
// checked twice in a row or after other specs (no state leaks between checks).

import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { brokenExamples, cleanExamples } from "../../support/spec-examples";

const ALL = [...cleanExamples(), ...brokenExamples()];

/** A canonical text of any value: Maps as entry lists, cycles cut, functions named. */
function canonical(value: unknown, ancestors: unknown[] = []): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "function") return "[function]";
    if (typeof value === "bigint") return `${value}n`;
    return JSON.stringify(value) ?? String(value);
  }
  if (ancestors.includes(value)) return "[cycle]";
  const inner = [...ancestors, value];
  if (value instanceof Map) {
    return `Map{${[...value.entries()].map(([k, v]) => `${canonical(k, inner)}=>${canonical(v, inner)}`).join(",")}}`;
  }
  if (value instanceof Set) return `Set{${[...value].map((v) => canonical(v, inner)).join(",")}}`;
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, inner)).join(",")}]`;
  const keys = Object.keys(value);
  const record = value as Record<string, unknown>;
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(record[k], inner)}`).join(",")}}`;
}

function output(text: string): { readonly json: string; readonly ir: string } {
  const r = checkSpec(text);
  return {
    json: JSON.stringify({ valid: r.valid, errors: r.errors, warnings: r.warnings }),
    ir: canonical(r.ir),
  };
}

describe("determinism", () => {
  it("gives identical output for the same text, in any order of checks", () => {
    const first = ALL.map((e) => output(e.text));
    const reversed = [...ALL]
      .reverse()
      .map((e) => output(e.text))
      .reverse();
    expect(reversed).toEqual(first);
    expect(ALL.map((e) => output(e.text))).toEqual(first);
  });

  it("the IR of a clean example is present and identical across checks", () => {
    for (const example of cleanExamples()) {
      const a = output(example.text);
      expect(a.ir).not.toBe("null");
      expect(output(example.text).ir).toBe(a.ir);
    }
  });
});
