// toJson (loaded node → JSON data with null-prototype objects) and pythonRepr (docs/reference/language.md §9.4 repr).
import { describe, expect, it } from "vitest";
import { MAX_REPR, pythonRepr } from "../../../checker/yaml/repr";
import { toJson } from "../../../checker/yaml/to-json";
import { load, nodeAt } from "./support";

describe("toJson", () => {
  it("converts every node kind; ints beyond 2^53 become numbers, floats numbers, dates their text", () => {
    const root = load(
      "s: text\ni: 12\nbig: 12345678901234567890\nf: 0.5\ninf: .inf\nb: yes\nn: ~\nd: 2024-01-01\nl: [1, 'a', [true]]\nm: {x: {y: null}}\n",
    ).root;
    expect(toJson(root)).toEqual({
      s: "text",
      i: 12,
      big: Number(12345678901234567890n),
      f: 0.5,
      inf: Number.POSITIVE_INFINITY,
      b: true,
      n: null,
      d: "2024-01-01",
      l: [1, "a", [true]],
      m: { x: { y: null } },
    });
  });

  it("objects have no prototype: __proto__ is plain data and changes nothing", () => {
    const json = toJson(load("__proto__: {polluted: 1}\nconstructor: x\n").root) as Record<string, unknown>;
    expect(Object.getPrototypeOf(json)).toBe(null);
    expect(Object.keys(json)).toEqual(["__proto__", "constructor"]);
    expect(Object.getOwnPropertyDescriptor(json, "__proto__")?.value).toEqual({ polluted: 1 });
    expect(json.constructor).toBe("x");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(json)).toBe('{"__proto__":{"polluted":1},"constructor":"x"}');
  });

  it("keys that are not strings are written as Python's json.dumps writes them", () => {
    const json = toJson(load("2: a\non: b\n~: c\n0.5: d\n[x]: e\n").root) as Record<string, unknown>;
    expect(json).toEqual({ "2": "a", true: "b", null: "c", "0.5": "d", "['x']": "e" });
  });
});

describe("pythonRepr", () => {
  const repr = (text: string, ...path: (string | number)[]) => pythonRepr(nodeAt(load(text).root, ...path));

  it("scalars as Python prints them", () => {
    expect(repr("v: text\n", "v")).toBe("'text'");
    expect(repr('v: "it\'s"\n', "v")).toBe('"it\'s"');
    expect(repr("v: 12\n", "v")).toBe("12");
    expect(repr("v: 12345678901234567890\n", "v")).toBe("12345678901234567890");
    expect(repr("v: 0.2\n", "v")).toBe("0.2");
    expect(repr("v: 1.\n", "v")).toBe("1.0");
    expect(repr("v: 1.0e+16\n", "v")).toBe("1e+16");
    expect(repr("v: -.inf\n", "v")).toBe("-inf");
    expect(repr("v: ~\n", "v")).toBe("None");
    expect(repr("v: off\n", "v")).toBe("False");
    expect(repr("v: 2024-01-01\n", "v")).toBe("datetime.date(2024, 1, 1)");
    expect(repr('v: "a\\nb"\n', "v")).toBe("'a\\nb'");
  });

  it("sequences and mappings with Python separators", () => {
    expect(repr("v: [a, 1, [true, ~]]\n", "v")).toBe("['a', 1, [True, None]]");
    expect(repr("v: {a: 1, b: [x], 3: c}\n", "v")).toBe("{'a': 1, 'b': ['x'], 3: 'c'}");
    expect(repr("v: []\n", "v")).toBe("[]");
    expect(repr("v: {}\n", "v")).toBe("{}");
  });

  it("huge nodes are cut at MAX_REPR units followed by ...", () => {
    const items = Array.from({ length: 1000 }, (_, i) => i).join(", ");
    const out = repr(`v: [${items}]\n`, "v");
    expect(out.length).toBe(MAX_REPR + 3);
    expect(out.startsWith("[0, 1, 2, 3")).toBe(true);
    expect(out.endsWith("...")).toBe(true);
    // Exactly at the limit: not cut.
    const exact = repr(`v: ${"x".repeat(MAX_REPR - 2)}\n`, "v");
    expect(exact).toBe(`'${"x".repeat(MAX_REPR - 2)}'`);
  });

  it("never splits a surrogate pair", () => {
    const out = repr(`v: ${"😀".repeat(200)}\n`, "v");
    expect(out).toBe(`'${"😀".repeat(99)}...`);
  });

  it("aliased nodes repeated many times cost no more than the limit", () => {
    const text = `a: &a [${Array(50).fill("xxxxxxxx").join(", ")}]\nb: [*a, *a, *a, *a, *a, *a, *a, *a]\n`;
    expect(repr(text, "b").length).toBe(MAX_REPR + 3);
  });
});
