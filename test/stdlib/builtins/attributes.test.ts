// Attribute access and method dispatch (docs/reference/language.md §10.8.9), including dict-key shadowing and namespaces.
import { describe, expect, it } from "vitest";
import { callMethod, callValue, getAttribute, receiverOf } from "../../../stdlib/builtins/attributes";
import { makeNamespace } from "../../../stdlib/values/namespace";
import { PyBoundMethod, PyDict, PyGenerator, type PyValue, PyView } from "../../../stdlib/values/value";
import { d, env, f, outcome, t } from "./support";

const attr = (obj: PyValue, name: string) => outcome(() => getAttribute(obj, name));
const call = (obj: PyValue, name: string, args: PyValue[] = []) =>
  outcome(() => callMethod(obj, name, args, null, env()));

describe("getAttribute (not called)", () => {
  it("reads dict keys, which shadow methods", () => {
    expect(attr(d(["items", 1]), "items")).toBe("1");
    expect(attr(d(["a", d(["b", 2])]), "a")).toBe("{'b': 2}");
  });
  it("gives a bound method for a dict method name without such a key", () => {
    const m = getAttribute(d(["a", 1]), "items");
    expect(m).toBeInstanceOf(PyBoundMethod);
    expect(attr(d(), "get")).toBe("<built-in method get of dict object>");
  });
  it("raises AttributeError for other names", () => {
    expect(attr(d(), "pop")).toBe("AttributeError: 'dict' object has no attribute 'pop'");
    expect(attr(d(["a", 1]), "b")).toBe("AttributeError: 'dict' object has no attribute 'b'");
  });
  it("reads namespace fields and never exposes dict methods", () => {
    const ns = makeNamespace(d(["a", 1], ["keys", "k"]));
    expect(attr(ns, "a")).toBe("1");
    expect(attr(ns, "keys")).toBe("'k'");
    expect(attr(ns, "items")).toBe("AttributeError: 'types.SimpleNamespace' object has no attribute 'items'");
    expect(attr(ns, "zz")).toBe("AttributeError: 'types.SimpleNamespace' object has no attribute 'zz'");
  });
  it("gives bound methods of str, list and tuple, nothing else", () => {
    expect(attr("a", "upper")).toBe("<built-in method upper of str object>");
    expect(attr([1], "count")).toBe("<built-in method count of list object>");
    expect(attr(t(1), "index")).toBe("<built-in method index of tuple object>");
    expect(attr("a", "count")).toBe("<built-in method count of str object>");
    expect(attr([1], "append")).toBe("AttributeError: 'list' object has no attribute 'append'");
    expect(attr("a", "format")).toBe("AttributeError: 'str' object has no attribute 'format'");
    expect(attr(t(), "count2")).toBe("AttributeError: 'tuple' object has no attribute 'count2'");
  });
  it("raises for every other kind", () => {
    expect(attr(null, "x")).toBe("AttributeError: 'NoneType' object has no attribute 'x'");
    expect(attr(1, "bit_length")).toBe("AttributeError: 'int' object has no attribute 'bit_length'");
    expect(attr(true, "real")).toBe("AttributeError: 'bool' object has no attribute 'real'");
    expect(attr(f(1.5), "is_integer")).toBe("AttributeError: 'float' object has no attribute 'is_integer'");
    expect(attr(new PyView("keys", new PyDict()), "count")).toBe(
      "AttributeError: 'dict_keys' object has no attribute 'count'",
    );
    expect(attr(new PyGenerator([][Symbol.iterator]()), "send")).toBe(
      "AttributeError: 'generator' object has no attribute 'send'",
    );
  });
});

describe("callMethod", () => {
  it("calls dict methods even when a key of that name exists", () => {
    const shadowed = d(["items", 1], ["get", 2]);
    expect(call(shadowed, "items")).toBe("dict_items([('items', 1), ('get', 2)])");
    expect(call(shadowed, "get", ["get"])).toBe("2");
    expect(call(shadowed, "keys")).toBe("dict_keys(['items', 'get'])");
    expect(call(shadowed, "values")).toBe("dict_values([1, 2])");
  });
  it("calls dict methods on a namespace", () => {
    const ns = makeNamespace(d(["a", 1], ["items", 5]));
    expect(call(ns, "get", ["a"])).toBe("1");
    expect(call(ns, "get", ["b", 0])).toBe("0");
    expect(call(ns, "items")).toBe("dict_items([('a', 1), ('items', 5)])");
    expect(call(ns, "get", [[1]])).toBe("TypeError: unhashable type: 'list'");
  });
  it("calls a non-method attribute value and fails: not callable", () => {
    expect(call(d(["f", 1]), "f")).toBe("TypeError: 'int' object is not callable");
    expect(call(makeNamespace(d(["f", "x"])), "f")).toBe("TypeError: 'str' object is not callable");
    expect(call(makeNamespace(d()), "f")).toBe(
      "AttributeError: 'types.SimpleNamespace' object has no attribute 'f'",
    );
  });
  it("raises AttributeError for unknown methods", () => {
    expect(call("a", "title")).toBe("AttributeError: 'str' object has no attribute 'title'");
    expect(call(null, "upper")).toBe("AttributeError: 'NoneType' object has no attribute 'upper'");
    expect(call(3, "count")).toBe("AttributeError: 'int' object has no attribute 'count'");
  });
  it("returns live views", () => {
    const dict = d(["a", 1]);
    const keys = callMethod(dict, "keys", [], null, env());
    expect(keys).toBeInstanceOf(PyView);
    expect((keys as PyView).dict).toBe(dict);
  });
});

describe("callValue", () => {
  it("calls bound methods, including a dict method bound before the call", () => {
    const get = getAttribute(d(["a", 1]), "get");
    expect(outcome(() => callValue(get, ["a"], null, env()))).toBe("1");
    const split = getAttribute("a b", "split");
    expect(outcome(() => callValue(split, [], new Map([["maxsplit", 0]]), env()))).toBe("['a b']");
  });
  it("refuses every other value", () => {
    for (const [v, name] of [
      [null, "NoneType"],
      [1, "int"],
      ["s", "str"],
      [[1], "list"],
      [d(), "dict"],
    ] as const) {
      expect(outcome(() => callValue(v, [], null, env()))).toBe(
        `TypeError: '${name}' object is not callable`,
      );
    }
  });
  it("maps receivers to method tables", () => {
    expect(receiverOf("")).toBe("str");
    expect(receiverOf([])).toBe("list");
    expect(receiverOf(t())).toBe("tuple");
    expect(receiverOf(d())).toBe("dict");
    expect(receiverOf(makeNamespace(d()))).toBe("dict");
    expect(receiverOf(1)).toBeNull();
  });
});
