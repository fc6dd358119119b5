// The YAML loader: diagnostics of the YAML family (codes, messages, suggestions, exact ranges),
// PyYAML typing and the SpecNode tree (keys, merges, duplicates, anchors, ranges, itemStarts).
import { describe, expect, it } from "vitest";
import { YamlTimestamp } from "../../../checker/yaml/nodes";
import { PyFloat } from "../../../stdlib/values/value";
import { brief, load, nodeAt, scalarAt, where } from "./support";

const SUGGESTION = "Check YAML syntax — indentation, colons, quoting.";

describe("YAML-EMPTY", () => {
  it.each(["", "   ", "\n\n", " \t\r\n\u3000\n"])(
    "blank text %j is an error at 1:1 with an empty range",
    (text) => {
      const l = load(text);
      expect(l.ok).toBe(false);
      expect(l.diagnostics).toEqual([
        {
          code: "YAML-EMPTY",
          severity: "error",
          errorType: "ir_parse_error",
          message: "YAML syntax error: Empty or blank YAML input",
          path: "",
          range: { start: 0, end: 0 },
          suggestion: SUGGESTION,
        },
      ]);
      expect(l.root.kind).toBe("map");
    },
  );

  it("a document of comments only loads as an empty mapping at 0..0, without diagnostics", () => {
    for (const text of ["# just a comment\n", "# a\n\n# b", "---\n# c\n", "~\n", "null\n", "--- \n"]) {
      const l = load(text);
      expect(l.ok).toBe(true);
      expect(l.diagnostics).toEqual([]);
      expect(l.root.kind).toBe("map");
      expect(l.root.range).toEqual({ start: 0, end: 0 });
      expect(l.root.kind === "map" && l.root.entries).toEqual([]);
    }
  });
});

describe("YAML-SYNTAX", () => {
  it.each([
    ["a double quote in a block mapping", 'a: 1\nb: "open\nc: 2\nd: 3\n', "2:4-2:5", '"'],
    ["a single quote in a block sequence", "- x\n- 'open\n- y\n", "2:3-2:4", "'"],
    ["a quoted key", 'a: 1\n"key: 2\nb: 3\n', "2:1-2:2", '"'],
    ["a quote inside a flow sequence", "a: [x, 'y, z]\nb: 1\n", "1:8-1:9", "'"],
  ])("reports an unclosed quote where it opened, not at the end of the text (%s)", (_, text, at, quote) => {
    const l = load(text);
    expect(l.ok).toBe(false);
    // Other errors may follow (a key spanning lines, an unterminated flow sequence); the quote's is
    // the one at the opening quote.
    const quotes = brief(l).filter((d) => d.includes("Missing closing"));
    expect(quotes).toEqual([
      `YAML-SYNTAX ${at} YAML syntax error: Missing closing ${quote}quote: the string opened here is never closed`,
    ]);
  });

  it("reports every syntax error at its token, with the parser's one-line description", () => {
    const l = load('a: "\\d"\nb: [1,\nc: {x\n');
    expect(l.ok).toBe(false);
    expect(brief(l)).toEqual([
      "YAML-SYNTAX 1:5-1:6 YAML syntax error: Invalid escape sequence \\d",
      "YAML-SYNTAX 3:1-3:2 YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]",
      "YAML-SYNTAX 4:1-4:1 YAML syntax error: Flow map in block collection must be sufficiently indented and end with a }",
    ]);
    for (const d of l.diagnostics) {
      expect(d).toMatchObject({
        severity: "error",
        errorType: "ir_parse_error",
        path: "",
        suggestion: SUGGESTION,
      });
    }
  });

  it("an unterminated flow sequence at the end of the text (conformance case 'bad') is on line 2", () => {
    expect(brief(load("a: [\n"))).toEqual([
      "YAML-SYNTAX 2:1-2:1 YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]",
    ]);
  });

  it("structural errors: bad indentation, a nested mapping on one line", () => {
    expect(brief(load("a:\n  - b\n c: d\n"))).toEqual([
      "YAML-SYNTAX 3:1-3:2 YAML syntax error: All mapping items must start at the same column",
    ]);
    expect(brief(load("a: b: c\n"))).toEqual([
      "YAML-SYNTAX 1:4-1:5 YAML syntax error: Nested mappings are not allowed in compact mappings",
    ]);
  });

  it("values PyYAML cannot construct: =, << as a value, impossible dates, bad explicit conversions", () => {
    expect(brief(load("a: =\nb: <<\nc: 2024-02-30\nd: !!int x1\ne: !!bool maybe\nf: !!float ''\n"))).toEqual([
      "YAML-SYNTAX 1:4-1:5 YAML syntax error: '=' (the YAML 1.1 value key) cannot be used as a value; quote it",
      "YAML-SYNTAX 2:4-2:6 YAML syntax error: '<<' is a merge key and cannot be used as a value; quote it",
      "YAML-SYNTAX 3:4-3:14 YAML syntax error: cannot load '2024-02-30' as a date: day is out of range for month",
      "YAML-SYNTAX 4:10-4:12 YAML syntax error: cannot load 'x1' as an integer",
      "YAML-SYNTAX 5:11-5:16 YAML syntax error: cannot load 'maybe' as a boolean",
      "YAML-SYNTAX 6:12-6:14 YAML syntax error: cannot load '' as a float",
    ]);
  });

  it("a tag that does not fit the node's kind", () => {
    expect(brief(load("a: !!seq x\nb: !!str [1]\nc: !!map [1]\nd: !!seq {x: 1}\n"))).toEqual([
      "YAML-SYNTAX 1:10-1:11 YAML syntax error: expected a sequence node, but found scalar",
      "YAML-SYNTAX 2:10-2:13 YAML syntax error: expected a scalar node, but found sequence",
      "YAML-SYNTAX 3:10-3:13 YAML syntax error: expected a mapping node, but found sequence",
      "YAML-SYNTAX 4:10-4:16 YAML syntax error: expected a sequence node, but found mapping",
    ]);
  });

  it("undefined and recursive aliases", () => {
    expect(brief(load("a: *nope\nb: &r [1, *r]\n"))).toEqual([
      "YAML-SYNTAX 1:4-1:9 YAML syntax error: found undefined alias 'nope'",
      "YAML-SYNTAX 2:11-2:13 YAML syntax error: alias 'r' refers to its own anchor (recursive structures are not supported)",
    ]);
  });

  it("bad merge values", () => {
    expect(brief(load("a:\n  <<: 1\nb:\n  <<: [{x: 1}, 2]\n"))).toEqual([
      "YAML-SYNTAX 2:7-2:8 YAML syntax error: expected a mapping or list of mappings for merging, but found scalar",
      "YAML-SYNTAX 4:16-4:17 YAML syntax error: expected a mapping for merging, but found scalar",
    ]);
  });
});

describe("YAML-MULTI-DOCUMENT", () => {
  it("is reported at the second document's --- marker", () => {
    const l = load('version: "0.2"\nflows: {}\n---\nversion: "0.2"\n');
    expect(brief(l)).toEqual([
      "YAML-MULTI-DOCUMENT 3:1-3:4 YAML syntax error: expected a single document in the stream but found another document",
    ]);
    expect(l.diagnostics[0]).toMatchObject({ path: "", suggestion: SUGGESTION, errorType: "ir_parse_error" });
    expect(l.ok).toBe(false);
  });

  it("an empty second document counts; a document after ... without a marker is located at its start", () => {
    expect(brief(load("a: 1\n---\n"))).toEqual([
      "YAML-MULTI-DOCUMENT 2:1-2:4 YAML syntax error: expected a single document in the stream but found another document",
    ]);
    expect(brief(load("a: 1\n...\nb: 2\n"))).toEqual([
      "YAML-MULTI-DOCUMENT 3:1-3:2 YAML syntax error: expected a single document in the stream but found another document",
    ]);
  });

  it("a leading --- and a closing ... are one document", () => {
    for (const text of ["---\na: 1\n", "a: 1\n...\n", "%YAML 1.1\n---\na: 1\n...\n# end\n"]) {
      expect(load(text).diagnostics).toEqual([]);
    }
  });
});

describe("YAML-TAG", () => {
  it("reports every tag outside !!str !!int !!float !!bool !!null !!seq !!map, at the tag", () => {
    const l = load(
      "a: !foo x\nb: !!binary aGk=\nc: !!set {x}\nd: !!timestamp 2024-01-01\ne: !e!x 1\nf: !<tag:example.com,2000:x> 1\n",
    );
    expect(brief(l)).toEqual([
      "YAML-TAG 1:4-1:8 YAML syntax error: unsupported tag '!foo'",
      "YAML-TAG 2:4-2:12 YAML syntax error: unsupported tag '!!binary'",
      "YAML-TAG 3:4-3:9 YAML syntax error: unsupported tag '!!set'",
      "YAML-TAG 4:4-4:15 YAML syntax error: unsupported tag '!!timestamp'",
      "YAML-TAG 5:4-5:8 YAML syntax error: unsupported tag '!e!x'",
      "YAML-TAG 6:4-6:29 YAML syntax error: unsupported tag '!<tag:example.com,2000:x>'",
    ]);
    expect(l.diagnostics[0]).toMatchObject({
      severity: "error",
      errorType: "ir_parse_error",
      suggestion: SUGGESTION,
    });
  });

  it("honours the standard tags, written as shorthand, verbatim or through a %TAG handle", () => {
    const l = load(
      "%TAG !y! tag:yaml.org,2002:\n---\na: !!str 0.2\nb: !!int '0x1F'\nc: !!float '1'\nd: !!bool 'Yes'\ne: !!null x\nf: !<tag:yaml.org,2002:str> 1\ng: !y!int '7'\nh: !!seq [1]\ni: !!map {}\nj: ! 12\n",
    );
    expect(l.diagnostics).toEqual([]);
    const v = (k: string) => scalarAt(l.root, k).value;
    expect(v("a")).toBe("0.2");
    expect(v("b")).toBe(31);
    expect(v("c")).toEqual(new PyFloat(1));
    expect(v("d")).toBe(true);
    expect(v("e")).toBe(null);
    expect(v("f")).toBe("1");
    expect(v("g")).toBe(7);
    expect(v("j")).toBe(12);
    expect(scalarAt(l.root, "a").tag).toBe("!!str");
    expect(scalarAt(l.root, "j").tag).toBe("!");
    expect(nodeAt(l.root, "h").kind).toBe("seq");
  });
});

describe("YAML-ALIAS-LIMIT", () => {
  const aliases = (n: number) => `a: &a x\nl: [${Array.from({ length: n }, () => "*a").join(", ")}]\n`;

  it("allows 100 alias expansions and reports the 101st alias", () => {
    expect(load(aliases(100)).diagnostics).toEqual([]);
    const l = load(aliases(101));
    // "l: [" is 4 characters; each "*a, " is 4: the 101st alias starts at column 5 + 400.
    expect(brief(l)).toEqual([
      "YAML-ALIAS-LIMIT 2:405-2:407 YAML syntax error: too many alias expansions (limit 100)",
    ]);
    expect(l.diagnostics[0]).toMatchObject({ suggestion: SUGGESTION, errorType: "ir_parse_error" });
  });

  it("counts the aliases inside expanded anchors (billion laughs stops early, in bounded time)", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(", ")}]`);
    }
    const l = load(`${levels.join("\n")}\n`);
    // b expands 10 aliases; each *b in c costs 11: 10 + 8 × 11 = 98, the 9th *b crosses 100.
    expect(brief(l)).toEqual([
      "YAML-ALIAS-LIMIT 3:40-3:42 YAML syntax error: too many alias expansions (limit 100)",
    ]);
  });

  it("aliases resolve to the anchored node object itself", () => {
    const l = load("a: &x {p: 1}\nb: *x\nc: [*x]\n");
    expect(nodeAt(l.root, "b")).toBe(nodeAt(l.root, "a"));
    expect(nodeAt(l.root, "c", 0)).toBe(nodeAt(l.root, "a"));
  });
});

describe("YAML-DUPLICATE-KEY", () => {
  it("warns at each earlier occurrence, related to the used (last) one; the last value wins in first position", () => {
    const l = load("a: 1\nb: 2\na: 3\nc: 4\na: 5\n");
    expect(l.ok).toBe(true);
    expect(l.diagnostics).toEqual([
      {
        code: "YAML-DUPLICATE-KEY",
        severity: "warning",
        errorType: "ir_parse_error",
        message: "Duplicate key 'a' in mapping; the last occurrence is used",
        path: "",
        range: { start: 0, end: 1 },
        related: [{ message: "this occurrence is used", path: "", range: { start: 20, end: 21 } }],
      },
      {
        code: "YAML-DUPLICATE-KEY",
        severity: "warning",
        errorType: "ir_parse_error",
        message: "Duplicate key 'a' in mapping; the last occurrence is used",
        path: "",
        range: { start: 10, end: 11 },
        related: [{ message: "this occurrence is used", path: "", range: { start: 20, end: 21 } }],
      },
    ]);
    const root = l.root;
    if (root.kind !== "map") throw new Error("map expected");
    expect(root.entries.map((e) => e.name)).toEqual(["a", "b", "c"]);
    expect(scalarAt(root, "a").value).toBe(5);
    expect(root.get("a")?.key.range).toEqual({ start: 20, end: 21 });
  });

  it("applies in flow mappings and nested mappings; quoted and plain spellings are the same key", () => {
    expect(brief(load("x: {k: 1, 'k': 2}\ny:\n  z: 1\n  \"z\": 2\n"))).toEqual([
      "YAML-DUPLICATE-KEY 1:5-1:6 Duplicate key 'k' in mapping; the last occurrence is used",
      "YAML-DUPLICATE-KEY 3:3-3:4 Duplicate key 'z' in mapping; the last occurrence is used",
    ]);
  });
});

describe("nesting depth guard", () => {
  it("10,000 nested flow sequences: one located error, no stack overflow", () => {
    const l = load(`${"[".repeat(10_000)}${"]".repeat(10_000)}\n`);
    expect(brief(l)).toEqual(["YAML-SYNTAX 1:201-1:202 YAML syntax error: nesting deeper than 200 levels"]);
  });

  it("10,000 nested block sequences and deep block mappings", () => {
    expect(brief(load(`${"- ".repeat(10_000)}x\n`))).toEqual([
      "YAML-SYNTAX 1:401-1:402 YAML syntax error: nesting deeper than 200 levels",
    ]);
    let deep = "";
    for (let i = 0; i < 1000; i++) deep += `${" ".repeat(i)}k:\n`;
    expect(brief(load(deep))).toEqual([
      "YAML-SYNTAX 201:201-201:202 YAML syntax error: nesting deeper than 200 levels",
    ]);
  });

  it("200 levels load", () => {
    const l = load(`${"[".repeat(200)}1${"]".repeat(200)}\n`);
    expect(l.diagnostics).toEqual([]);
    let node = l.root;
    for (let i = 0; i < 199; i++) node = nodeAt(node, 0);
    expect(scalarAt(node, 0).value).toBe(1);
  });
});

describe("keys", () => {
  it("name is the key string, null for keys that do not load as strings", () => {
    const l = load(
      "plain: 1\n'quoted': 2\n1: 3\non: 4\nyes: 5\n~: 6\n[a]: 7\n? {b: 1}\n: 8\n'1': 9\n0.5: 10\n",
    );
    const root = l.root;
    if (root.kind !== "map") throw new Error("map expected");
    expect(root.entries.map((e) => e.name)).toEqual([
      "plain",
      "quoted",
      null,
      null,
      null,
      null,
      null,
      null,
      "1",
      null,
    ]);
    expect(root.entries.map((e) => e.key.kind)).toEqual([
      "scalar",
      "scalar",
      "scalar",
      "scalar",
      "scalar",
      "scalar",
      "seq",
      "map",
      "scalar",
      "scalar",
    ]);
    expect(root.get("1")?.value.kind === "scalar" && root.get("1")?.value).toMatchObject({ value: 9 });
  });

  it("__proto__ and other Object.prototype names are ordinary keys", () => {
    const l = load("__proto__: {polluted: true}\nconstructor: c\n");
    const root = l.root;
    if (root.kind !== "map") throw new Error("map expected");
    expect(root.get("__proto__")?.value.kind).toBe("map");
    expect(scalarAt(root, "constructor").value).toBe("c");
    expect(root.get("toString")).toBeUndefined();
    expect(root.get("hasOwnProperty")).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("= as a key is the string '=' (PyYAML)", () => {
    expect(scalarAt(load("=: 1\n").root, "=").value).toBe(1);
  });
});

describe("merge keys", () => {
  it("adds the merged entries unless present; << itself does not appear; no duplicate warning", () => {
    const l = load("base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  y: 3\n  z: 4\n");
    expect(l.diagnostics).toEqual([]);
    const other = nodeAt(l.root, "other");
    if (other.kind !== "map") throw new Error("map expected");
    expect(other.entries.map((e) => [e.name, e.value.kind === "scalar" ? e.value.value : null])).toEqual([
      ["x", 1],
      ["y", 3],
      ["z", 4],
    ]);
    expect(other.get("<<")).toBeUndefined();
  });

  it("a list of mappings: earlier mappings win, merged keys come first (PyYAML order)", () => {
    const l = load("x: 1\n<<: [{a: 1, b: 2}, {b: 3, c: 4}]\n");
    const root = l.root;
    if (root.kind !== "map") throw new Error("map expected");
    expect(root.entries.map((e) => [e.name, e.value.kind === "scalar" ? e.value.value : null])).toEqual([
      ["b", 2],
      ["c", 4],
      ["a", 1],
      ["x", 1],
    ]);
  });

  it("a quoted '<<' is an ordinary key", () => {
    const root = load("'<<': {a: 1}\n").root;
    expect(root.kind === "map" && root.entries.map((e) => e.name)).toEqual(["<<"]);
  });
});

describe("scalar typing", () => {
  it("YAML 1.1 implicit types; quoted and block scalars are strings", () => {
    const l = load(
      "a: yes\nb: 'yes'\nc: 010\nd: 08\ne: 0b101\nf: 1_000\ng: 0x1F\nh: 1:30\ni: 1.0e+3\nj: 1e3\nk: -.5\nl: .inf\nm: ~\nn:\no: |\n  12\np: 12345678901234567890\nq: -.inf\nr: .NaN\n",
    );
    expect(l.diagnostics).toEqual([]);
    const v = (k: string) => scalarAt(l.root, k).value;
    expect(v("a")).toBe(true);
    expect(v("b")).toBe("yes");
    expect(v("c")).toBe(8);
    expect(v("d")).toBe("08");
    expect(v("e")).toBe(5);
    expect(v("f")).toBe(1000);
    expect(v("g")).toBe(31);
    expect(v("h")).toBe(90);
    expect(v("i")).toEqual(new PyFloat(1000));
    expect(v("j")).toBe("1e3");
    expect(v("k")).toBe("-.5");
    expect(v("l")).toEqual(new PyFloat(Number.POSITIVE_INFINITY));
    expect(v("m")).toBe(null);
    expect(v("n")).toBe(null);
    expect(v("o")).toBe("12\n");
    expect(v("p")).toBe(12345678901234567890n);
    expect(v("q")).toEqual(new PyFloat(Number.NEGATIVE_INFINITY));
    expect(Number.isNaN((v("r") as PyFloat).v)).toBe(true);
    expect(scalarAt(l.root, "o").style).toBe("literal");
    expect(scalarAt(l.root, "b").style).toBe("single");
  });

  it("dates and timestamps keep their text and Python's repr", () => {
    const l = load(
      "a: 2024-01-01\nb: 2024-01-01T10:30:00Z\nc: 2001-12-14 21:59:43.10 -5\nd: 2024-01-01 10:30:15\n",
    );
    const t = (k: string) => scalarAt(l.root, k).value as YamlTimestamp;
    expect(t("a")).toEqual(new YamlTimestamp("2024-01-01", "datetime.date(2024, 1, 1)"));
    expect(t("b").pythonRepr).toBe("datetime.datetime(2024, 1, 1, 10, 30, tzinfo=datetime.timezone.utc)");
    expect(t("c").pythonRepr).toBe(
      "datetime.datetime(2001, 12, 14, 21, 59, 43, 100000, tzinfo=datetime.timezone(datetime.timedelta(days=-1, seconds=68400)))",
    );
    expect(t("d").pythonRepr).toBe("datetime.datetime(2024, 1, 1, 10, 30, 15)");
    expect(t("c").text).toBe("2001-12-14 21:59:43.10 -5");
  });
});

describe("ranges", () => {
  const text = "a:\n  - x\n  -\n  - 'y' # c\n\nb: [1, {p: q}]  # c\nc: |\n  t\n\nd:\ne: {k}\n";
  const l = load(text);
  const at = (...path: (string | number)[]) => where(l.src, nodeAt(l.root, ...path).range);

  it("cover each node as written: quotes included, trailing comments and blank lines excluded", () => {
    expect(l.diagnostics).toEqual([]);
    expect(at("a")).toBe("2:3-4:8");
    expect(at("a", 0)).toBe("2:5-2:6");
    expect(at("a", 2)).toBe("4:5-4:8");
    expect(at("b")).toBe("6:4-6:15");
    expect(at("b", 1)).toBe("6:8-6:14");
    expect(at("c")).toBe("7:4-8:4");
    expect(where(l.src, l.root.range)).toBe("1:1-11:7");
  });

  it("an empty value is a null scalar with an empty range just after its colon", () => {
    expect(at("a", 1)).toBe("3:4-3:4");
    expect(at("d")).toBe("10:3-10:3");
    expect(scalarAt(l.root, "e", "k").value).toBe(null);
    expect(at("e", "k")).toBe("11:6-11:6");
  });

  it("itemStarts: the - of each block item, the start of each flow item", () => {
    const a = nodeAt(l.root, "a");
    const b = nodeAt(l.root, "b");
    if (a.kind !== "seq" || b.kind !== "seq") throw new Error("seq expected");
    expect(a.itemStarts.map((o) => where(l.src, { start: o, end: o + 1 }))).toEqual([
      "2:3-2:4",
      "3:3-3:4",
      "4:3-4:4",
    ]);
    expect(b.itemStarts.map((o) => where(l.src, { start: o, end: o + 1 }))).toEqual(["6:5-6:6", "6:8-6:9"]);
    expect(a.flow).toBe(false);
    expect(b.flow).toBe(true);
  });

  it("key ranges", () => {
    const root = l.root;
    if (root.kind !== "map") throw new Error("map expected");
    expect(root.entries.map((e) => where(l.src, e.key.range))).toEqual([
      "1:1-1:2",
      "6:1-6:2",
      "7:1-7:2",
      "10:1-10:2",
      "11:1-11:2",
    ]);
  });

  it("items of a sequence of mappings: the - and the first key", () => {
    const s = load("steps:\n  - id: a\n    x: 1\n  -\n    id: b\n");
    const steps = nodeAt(s.root, "steps");
    if (steps.kind !== "seq") throw new Error("seq expected");
    expect(steps.itemStarts.map((o) => s.src.lineOf(o))).toEqual([2, 4]);
    expect(where(s.src, steps.items[1]?.range ?? { start: 0, end: 0 })).toBe("5:5-5:10");
  });

  it("offsets count UTF-16 units of the original text (BOM, non-BMP)", () => {
    const s = load("\uFEFF😀: [é, 😀x]\n");
    const root = s.root;
    if (root.kind !== "map") throw new Error("map expected");
    expect(root.entries[0]?.key.range).toEqual({ start: 1, end: 3 });
    expect(where(s.src, nodeAt(root, "😀", 1).range)).toBe("1:9-1:11");
  });
});
