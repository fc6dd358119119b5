import { describe, expect, it } from "vitest";
import { Budget } from "../../../stdlib/values/budget";
import { pyContains } from "../../../stdlib/values/membership";
import { makeNamespace } from "../../../stdlib/values/namespace";
import { repr } from "../../../stdlib/values/repr";
import { getItem, getSlice } from "../../../stdlib/values/subscript";
import { truthy } from "../../../stdlib/values/truth";
import {
  PyBoundMethod,
  PyDict,
  PyGenerator,
  PyTuple,
  type PyValue,
  PyView,
  type ViewKind,
} from "../../../stdlib/values/value";
import { d, show, t } from "./support";
import { CONTAINER_ROWS } from "./tables/misc";

function outcome(op: string, a: PyValue, b: PyValue): string {
  switch (op) {
    case "in":
      return show(() => pyContains(b, a));
    case "in.keys":
    case "in.values":
    case "in.items":
      return show(() => pyContains(new PyView(op.slice(3) as ViewKind, b as PyDict), a));
    case "[]":
      return show(() => getItem(a, b));
    case "slice": {
      const [lo, hi, st] = (b as PyTuple).items;
      return show(() => getSlice(a, lo ?? null, hi ?? null, st ?? null));
    }
    case "truth":
      return show(() => truthy(a));
  }
  throw new Error(`unknown table operation ${op}`);
}

describe("membership, subscripts, slices and truthiness against CPython", () => {
  it.each(CONTAINER_ROWS.map((r) => [r[0], repr(r[1]), repr(r[2]), r] as const))(
    "%s %s %s",
    (_o, _a, _b, row) => {
      expect(outcome(row[0], row[1], row[2])).toBe(row[3]);
    },
  );
});

describe("namespaces act as dicts for subscripts and membership (docs/reference/language.md §10.7.3)", () => {
  const ns = makeNamespace(d(["a", 1]));
  it("reads keys, raises KeyError and rejects slices", () => {
    expect(show(() => getItem(ns, "a"))).toBe("1");
    expect(show(() => getItem(ns, "zz"))).toBe("!KeyError: 'zz'");
    expect(show(() => getSlice(ns, 1, null, null))).toBe("!TypeError: unhashable type: 'slice'");
    expect(pyContains(ns, "a")).toBe(true);
    expect(show(() => pyContains(ns, []))).toBe("!TypeError: unhashable type: 'list'");
    expect(show(() => pyContains(d(), ns))).toBe("!TypeError: unhashable type: 'types.SimpleNamespace'");
  });
  it("is always truthy", () => {
    expect(truthy(makeNamespace(new PyDict()))).toBe(true);
    expect(truthy(new PyView("keys", new PyDict()))).toBe(false);
    expect(truthy(new PyView("items", d([1, 2])))).toBe(true);
    expect(truthy(new PyGenerator([][Symbol.iterator]()))).toBe(true);
    expect(truthy(new PyBoundMethod("", "upper"))).toBe(true);
  });
  it("views and generators are not subscriptable", () => {
    expect(show(() => getItem(new PyView("keys", d()), 0))).toBe(
      "!TypeError: 'dict_keys' object is not subscriptable",
    );
    expect(show(() => getSlice(new PyGenerator([][Symbol.iterator]()), null, null, null))).toBe(
      "!TypeError: 'generator' object is not subscriptable",
    );
  });
});

describe("membership in a generator consumes it up to the match", () => {
  it("leaves the rest for later", () => {
    const g = new PyGenerator([1, 2, 3, 4][Symbol.iterator]());
    expect(pyContains(g, 2)).toBe(true);
    expect(pyContains(g, 1)).toBe(false);
    expect(pyContains(g, 3)).toBe(false);
  });
});

describe("strings are indexed by code point", () => {
  it("handles astral characters and combining marks", () => {
    expect(getItem("😀", 0)).toBe("😀");
    expect(getItem("a😀e\u0301", -1)).toBe("\u0301");
    expect(getItem("a😀e\u0301", 2)).toBe("e");
    expect(getSlice("a😀b😀c", null, null, -2)).toBe("cba");
    expect(getSlice("a😀b", 1, 2, null)).toBe("😀");
    expect(pyContains("a😀b", "\ud83d")).toBe(false);
    expect(pyContains("a\ud83d", "\ud83d")).toBe(true);
    expect(pyContains("x😀", "😀")).toBe(true);
  });
});

describe("slice budget", () => {
  it("charges the result size", () => {
    const budget = new Budget();
    getSlice([1, 2, 3, 4, 5], null, null, 2, budget);
    expect(budget.spent).toBe(3);
    getSlice("héllo😀", 1, null, null, budget);
    expect(budget.spent).toBe(8);
  });
});

describe("tuples keep their kind", () => {
  it("slicing a tuple gives a tuple", () => {
    expect(getSlice(t(1, 2, 3), 1, null, null)).toBeInstanceOf(PyTuple);
  });
});
