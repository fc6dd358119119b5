import { describe, expect, it } from "vitest";
import { OWN_CASES, PYTHON_CASES } from "./cases";
import { run } from "./support";

describe("expressions that behave as in CPython", () => {
  it.each(PYTHON_CASES)("%s", (text, expected) => {
    expect(run(text)).toBe(expected);
  });
});

describe("expressions with our own semantics (namespace, paths, divergences)", () => {
  it.each(OWN_CASES)("%s", (text, expected) => {
    expect(run(text)).toBe(expected);
  });
});

describe("$ paths without a path source", () => {
  it("are None", () => {
    expect(run("$.input.x", { paths: { input: () => undefined, stepOutput: () => undefined } })).toBe("None");
  });
});
