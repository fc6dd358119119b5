import { describe, expect, it } from "vitest";
import {
  dictGet,
  dictGetStr,
  dictHas,
  dictItems,
  dictKeys,
  dictValues,
  hashKey,
  isHashable,
  makeDict,
} from "../../../stdlib/values/dict";
import { makeNamespace } from "../../../stdlib/values/namespace";
import { repr } from "../../../stdlib/values/repr";
import { PyBoundMethod, PyDict, PyGenerator, type PyValue, PyView } from "../../../stdlib/values/value";
import { big, d, f, show, t } from "./support";

describe("hashKey (docs/reference/language.md §10.8.4)", () => {
  it("maps equal numbers to one key", () => {
    expect(hashKey(1)).toBe(hashKey(f(1)));
    expect(hashKey(true)).toBe(hashKey(1));
    expect(hashKey(false)).toBe(hashKey(f(-0)));
    expect(hashKey(big(`${2n ** 64n}`))).toBe(hashKey(f(2 ** 64)));
    expect(hashKey(t(1, "a"))).toBe(hashKey(t(f(1), "a")));
    expect(hashKey(t(t(true), null))).toBe(hashKey(t(t(1), null)));
  });
  it("keeps different values apart", () => {
    const values: PyValue[] = [
      1,
      f(1.5),
      "1",
      "1.5",
      null,
      "null",
      t(1),
      t("1"),
      t(t(1)),
      t(1, 2),
      t(),
      "\u0001T",
      "",
      big("9007199254740993"),
      f(9007199254740992),
    ];
    expect(new Set(values.map(hashKey)).size).toBe(values.length);
  });
  it("treats each NaN object as its own key", () => {
    const nan = f(Number.NaN);
    const dict = makeDict([[nan, 1]]);
    expect(dictGet(dict, nan)).toBe(1);
    expect(dictGet(dict, f(Number.NaN))).toBeUndefined();
  });
  it.each([
    [[1], "list"],
    [d(), "dict"],
    [makeNamespace(d()), "types.SimpleNamespace"],
    [new PyView("values", d()), "dict_values"],
    [t(1, [2]), "list"],
    [new PyBoundMethod([], "count"), "list"],
  ] as const)("rejects %s", (value, type) => {
    expect(show(() => String(hashKey(value)))).toBe(`!TypeError: unhashable type: '${type}'`);
    expect(isHashable(value)).toBe(false);
  });
  it("hashes generators and bound methods of hashable receivers by identity", () => {
    const g = new PyGenerator([][Symbol.iterator]());
    const m = new PyBoundMethod("a", "upper");
    expect(hashKey(g)).toBe(g);
    expect(hashKey(m)).toBe(m);
    expect(isHashable(t(1, "a", null, f(2), g))).toBe(true);
  });
});

describe("dict helpers", () => {
  const dict = makeDict([
    ["a", 1],
    [1, "one"],
    [f(1), "uno"],
    ["\u0001x", "esc"],
    [t(1, 2), "pair"],
    ["a", 2],
  ]);
  it("keeps the first key object and the last value, in insertion order", () => {
    expect(repr(dict)).toBe("{'a': 2, 1: 'uno', '\\x01x': 'esc', (1, 2): 'pair'}");
    expect(dictKeys(dict).map((k) => repr(k))).toEqual(["'a'", "1", "'\\x01x'", "(1, 2)"]);
    expect(dictValues(dict)).toEqual([2, "uno", "esc", "pair"]);
    expect(dictItems(dict).map((p) => repr(p))).toEqual([
      "('a', 2)",
      "(1, 'uno')",
      "('\\x01x', 'esc')",
      "((1, 2), 'pair')",
    ]);
  });
  it("looks keys up by hash equality", () => {
    expect(dictGet(dict, true)).toBe("uno");
    expect(dictGet(dict, t(f(1), 2))).toBe("pair");
    expect(dictHas(dict, "b")).toBe(false);
    expect(dictGetStr(dict, "a")).toBe(2);
    expect(dictGetStr(dict, "\u0001x")).toBe("esc");
    expect(dictGetStr(dict, "zz")).toBeUndefined();
    expect(show(() => dictHas(dict, [1]))).toBe("!TypeError: unhashable type: 'list'");
  });
  it("builds an empty dict from no entries", () => {
    expect(makeDict([]).size).toBe(0);
    expect(makeDict([])).toBeInstanceOf(PyDict);
  });
});
