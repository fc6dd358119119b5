// The YAML fast path (checker/yaml/cst-build.ts) against the composer path it replaces: for every
// input either the fast path declines or the whole tree (every node, range, value, style, entry,
// item start, the source position of every loaded character, shared alias nodes), the YAML-phase
// diagnostics and `ok` are exactly the composer's. Inputs: the validation conformance specs,
// examples/ (broken ones included), the 1,000-spec bench corpus, generated documents of the
// supported shapes, and random character mutations of valid specs; each also with the CST freed
// while the tree is built (what big texts get, RELEASE_CST_FROM).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateCorpus } from "../../../bench/spec-corpus";
import { RELEASE_CST_FROM } from "../../../checker/yaml/load";
import { loadValidationCases } from "../../support/spec-conformance";
import { compareLoads, loadWith } from "./fast-path-support";

/** `withRelease`: also load with the CST freed while building (off for the two biggest loops, for time). */
function expectSame(text: string, withRelease = true): "fast" | "composer" | null {
  const { fast, released, composer } = compareLoads(text, withRelease);
  expect(composer.path === null || composer.path === "composer").toBe(true);
  const expected = { tree: composer.tree, diagnostics: composer.diagnostics, ok: composer.ok };
  expect({ tree: fast.tree, diagnostics: fast.diagnostics, ok: fast.ok }).toEqual(expected);
  // Freeing the CST while building (big texts) changes nothing, also when the fast path declines.
  if (released !== null) {
    expect({ tree: released.tree, diagnostics: released.diagnostics, ok: released.ok }).toEqual(expected);
    expect(released.path).toBe(fast.path);
  }
  return fast.path;
}

const EXAMPLES = join(__dirname, "../../../examples");
const exampleTexts = [EXAMPLES, join(EXAMPLES, "broken")].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .map((f) => ({ name: f, text: readFileSync(join(dir, f), "utf8") })),
);

describe("YAML fast path: recorded and example specs", () => {
  it("matches the composer on every validation conformance spec", () => {
    const cases = loadValidationCases();
    expect(cases.length).toBe(156);
    let fast = 0;
    for (const c of cases) if (expectSame(c.yaml) === "fast") fast++;
    expect(fast).toBeGreaterThan(140);
  });

  it("matches the composer on examples/ and examples/broken/ and takes the fast path", () => {
    expect(exampleTexts.length).toBeGreaterThanOrEqual(17);
    for (const e of exampleTexts) expect(expectSame(e.text), e.name).toBe("fast");
  });

  it("matches the composer on the 1,000-spec bench corpus, taking the fast path on ≥ 95 %", () => {
    const corpus = generateCorpus(1000);
    let fast = 0;
    for (const s of corpus) if (expectSame(s.text, false) === "fast") fast++;
    expect(fast).toBeGreaterThanOrEqual(950);
  });
});

describe("YAML fast path: big texts (the CST freed while building)", () => {
  const contracts = (n: number) =>
    Array.from({ length: n }, (_, i) => `  C${i}:\n    a: {type: string}\n    b: [1, 2]\n`).join("");
  it("loads a big text like the composer, and one that declines at its very end too", () => {
    const big = `version: "0.2"\ncontracts:\n${contracts(3000)}`;
    expect(big.length).toBeGreaterThan(RELEASE_CST_FROM);
    expect(expectSame(big)).toBe("fast");
    // A merge key in the last mapping: the fast path declines after freeing nearly all of the CST.
    const declines = `${big}base: &b {x: 1}\nlast:\n  <<: *b\n  y: 2\n`;
    expect(expectSame(declines)).toBe("composer");
    expect(loadWith(declines, true).path).toBe("composer");
  });
});

describe("YAML fast path: exact cases", () => {
  const cases: readonly [string, string, "fast" | "composer"][] = [
    ["duplicate keys", "a: 1\nb: 2\na: 3\n", "fast"],
    ["duplicate keys in a flow map", "x: {a: 1, a: 2}\n", "fast"],
    ["empty values", "a:\nb: # c\nc: {d: , e}\nf:\n  -\n  - # x\n", "fast"],
    ["anchor and alias", "a: &x\n  k: v\nb: *x\nc: &y s\nd: *y\n", "fast"],
    ["document start and comments", "# top\n---\n# c\na: 1 # c\n\n# end\n", "fast"],
    ["block scalars", "a: |\n  x\n   y\n\nb: >-\n  p\n  q\n\n  r\nc: |+\n  k\n\n", "fast"],
    ["quoted", "a: 'it''s'\nb: \"\\x41\\u00e9\\n\"\nc: \"fold\n  ed\"\n", "fast"],
    ["a lone scalar", "hello\n", "fast"],
    ["only comments (no document)", "# nothing\n", "composer"],
    ["value key", "=: 1\n", "fast"],
    ["a tag", "a: !!str 1\n", "composer"],
    ["a merge key", "a: &x {k: 1}\nb:\n  <<: *x\n", "composer"],
    ["an explicit key", "? a\n: 1\n", "composer"],
    ["an undefined alias", "a: *nope\n", "composer"],
    ["a syntax error", "a: [1, 2\nb: 3\n", "composer"],
    ["a tab as indentation", "a:\n\tb: 1\n", "composer"],
    ["two documents", "a: 1\n---\nb: 2\n", "composer"],
    ["a pair in a flow sequence", "a: [b: 1]\n", "composer"],
    ["a bad timestamp", "a: 2024-13-45\n", "composer"],
    ["a merge key as a value", "a: <<\n", "composer"],
    ["a directive", "%YAML 1.1\n---\na: 1\n", "composer"],
  ];
  for (const [name, text, path] of cases) {
    it(`${name}: ${path}`, () => {
      expect(expectSame(text)).toBe(path);
    });
  }
});

// --- generated documents of the supported shapes --------------------------------------------

type Gen =
  | { readonly t: "scalar"; readonly text: string }
  | { readonly t: "block"; readonly header: string; readonly lines: readonly string[] }
  | { readonly t: "map"; readonly flow: boolean; readonly entries: readonly (readonly [string, Gen])[] }
  | { readonly t: "seq"; readonly flow: boolean; readonly items: readonly Gen[] };

const plainScalar = fc.constantFrom(
  "a",
  "word",
  "two words",
  "1",
  "-7",
  "0x1F",
  "017",
  "1_000",
  "3.25",
  "1e3",
  ".inf",
  "true",
  "No",
  "on",
  "null",
  "~",
  "2024-01-01",
  "2024-01-01 10:00:00",
  "result.x > 1",
  "$.input.y",
  "a:b",
  "x#y",
  "é ü",
  "😀",
  "=",
);
const quotedScalar = fc.constantFrom(
  "''",
  "'it''s'",
  "'a: b # c'",
  "'line\n  two'",
  '""',
  '"a\\nb"',
  '"\\x41\\u00e9\\U0001F600\\t"',
  '"say \\"hi\\""',
  '"fold\n  ed\n\n  more"',
  '"esc\\\n  aped"',
  '"1"',
);
const flowSafe = fc.oneof(
  fc.constantFrom("a", "b c", "1", "true", "null", "x.y", "3.5"),
  fc.constantFrom("'q'", '"d"', "'a, b'", '"[x]"'),
);
const blockScalar = fc.record({
  header: fc.constantFrom("|", "|-", "|+", ">", ">-", ">+", "|2", "> # c"),
  lines: fc.array(fc.constantFrom("text", "more text", "", "  indented", "a: b", "# not a comment"), {
    minLength: 1,
    maxLength: 4,
  }),
});
const KEYS = ["a", "b", "id", "a b", "'q'", '"d"', "1", "on", "x-y", "__proto__", "é"];
const key = fc.constantFrom(...KEYS);

const flowNode: fc.Arbitrary<string> = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, flowSafe, tie("seq"), tie("map")),
  seq: fc
    .tuple(fc.array(tie("node") as fc.Arbitrary<string>, { maxLength: 3 }), fc.boolean())
    .map(([items, trailing]) => `[${items.join(", ")}${trailing && items.length > 0 ? "," : ""}]`),
  map: fc
    .array(fc.tuple(key, fc.option(tie("node") as fc.Arbitrary<string>)), { maxLength: 3 })
    .map((entries) => `{${entries.map(([k, v]) => (v === null ? k : `${k}: ${v}`)).join(", ")}}`),
})).node as fc.Arbitrary<string>;

const gen: fc.Arbitrary<Gen> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(plainScalar, quotedScalar, flowNode).map((text): Gen => ({ t: "scalar", text })),
    blockScalar.map((b): Gen => ({ t: "block", ...b })),
    tie("map"),
    tie("seq"),
  ),
  map: fc
    .array(fc.tuple(key, tie("node") as fc.Arbitrary<Gen>), { minLength: 1, maxLength: 4 })
    .map((entries): Gen => ({ t: "map", flow: false, entries })),
  seq: fc
    .array(tie("node") as fc.Arbitrary<Gen>, { minLength: 1, maxLength: 4 })
    .map((items): Gen => ({ t: "seq", flow: false, items })),
})).node as fc.Arbitrary<Gen>;

/** Emits a generated node; `decor` picks comments, blank lines, anchors and aliases. */
function emit(root: Gen, decor: readonly number[]): string {
  let d = 0;
  const pick = (): number => decor[d++ % decor.length] ?? 0;
  const anchors: string[] = [];
  const out: string[] = [];
  const pad = (n: number): string => " ".repeat(n);
  const trailer = (): string => (pick() % 5 === 0 ? " # note" : "");
  const between = (indent: number): void => {
    const p = pick() % 7;
    if (p === 0) out.push("");
    else if (p === 1) out.push(`${pad(indent)}# comment`);
  };
  // `head` is what precedes the value on its line (`key:` or `-`).
  const value = (node: Gen, indent: number, head: string): void => {
    const p = pick();
    if (node.t === "scalar") {
      if (p % 9 === 0 && anchors.length > 0) out.push(`${head} *${anchors[p % anchors.length]}${trailer()}`);
      else if (p % 11 === 1) {
        const name = `s${anchors.length}`;
        anchors.push(name);
        out.push(`${head} &${name} ${node.text.replace(/\n/g, `\n${pad(indent + 2)}`)}${trailer()}`);
      } else out.push(`${head} ${node.text.replace(/\n/g, `\n${pad(indent + 2)}`)}${trailer()}`);
      return;
    }
    if (node.t === "block") {
      out.push(`${head} ${node.header}`);
      for (const line of node.lines) out.push(line === "" ? "" : `${pad(indent + 2)}${line}`);
      return;
    }
    if (p % 8 === 3) {
      const name = `n${anchors.length}`;
      anchors.push(name);
      out.push(`${head} &${name}${trailer()}`);
    } else out.push(`${head}${trailer()}`);
    block(node, indent + 2);
  };
  const block = (node: Gen, indent: number): void => {
    if (node.t === "map") {
      for (const [k, v] of node.entries) {
        between(indent);
        value(v, indent, `${pad(indent)}${k}:`);
      }
    } else if (node.t === "seq") {
      for (const item of node.items) {
        between(indent);
        value(item, indent, `${pad(indent)}-`);
      }
    } else value(node, indent, "");
  };
  if (pick() % 4 === 0) out.push("# header", "---");
  block(root, 0);
  return `${out.join("\n")}\n`;
}

describe("YAML fast path: generated documents", () => {
  it("matches the composer on documents of the supported shapes", () => {
    let fast = 0;
    let runs = 0;
    fc.assert(
      fc.property(gen, fc.array(fc.nat(1000), { minLength: 1, maxLength: 20 }), (g, decor) => {
        runs++;
        if (expectSame(emit(g, decor)) === "fast") fast++;
      }),
      { numRuns: 600 },
    );
    // Most generated documents are within the fast path's shapes.
    expect(fast).toBeGreaterThan(runs / 2);
  });
});

const MUTATION_CHARS = [
  ":",
  "-",
  "#",
  "'",
  '"',
  "[",
  "]",
  "{",
  "}",
  ",",
  " ",
  "  ",
  "\n",
  "\t",
  "&",
  "*",
  "!",
  "?",
  "|",
  ">",
  "\\",
  "\r",
];

function mutate(text: string, edits: readonly { op: number; at: number; ch: number; len: number }[]): string {
  let t = text;
  for (const e of edits) {
    const at = t.length === 0 ? 0 : e.at % (t.length + 1);
    const ch = MUTATION_CHARS[e.ch % MUTATION_CHARS.length] as string;
    if (e.op === 0) t = t.slice(0, at) + ch + t.slice(at);
    else if (e.op === 1) t = t.slice(0, at) + t.slice(at + 1 + (e.len % 3));
    else t = t.slice(0, at) + t.slice(at, at + 1 + e.len) + t.slice(at);
  }
  return t;
}

describe("YAML fast path: mutated specs", () => {
  const sources = [...exampleTexts.map((e) => e.text), ...generateCorpus(40).map((s) => s.text)];
  const edit = fc.record({ op: fc.nat(2), at: fc.nat(20_000), ch: fc.nat(100), len: fc.nat(6) });
  it("either declines or matches the composer after random character edits", () => {
    fc.assert(
      fc.property(fc.nat(sources.length - 1), fc.array(edit, { minLength: 1, maxLength: 4 }), (i, edits) => {
        expectSame(mutate(sources[i] as string, edits), false);
      }),
      { numRuns: 1500 },
    );
  });

  it("either declines or matches the composer on small mutated documents", () => {
    fc.assert(
      fc.property(
        gen,
        fc.array(fc.nat(1000), { minLength: 1, maxLength: 10 }),
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        (g, decor, edits) => {
          expectSame(
            mutate(
              emit(g, decor),
              edits.map((e) => ({ ...e, at: e.at % 400 })),
            ),
          );
        },
      ),
      { numRuns: 1500 },
    );
  });
});
