// test/ mirrors the source folders (test/README.md, "Where the tests of a source folder are"): the
// tests of `X/Y/file.ts` are under `test/X/Y/` or, for a small folder, `test/X/`. This test fails
// when (a) a top-level folder of test/ is neither a source layer nor a cross-cutting kind of test
// listed below, (b) a folder under a layer's test folder has no source folder of the same path, or
// (c) a source folder with .ts files has no test folder at its own path nor at its parent's. Each
// exception is listed with its reason; the checks are proved to bite on synthetic trees.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PRODUCT_FOLDERS, REPO } from "./cruise";

/** The source layers (ARCHITECTURE.md), with bench/ and scripts/: each has `test/<layer>/`. */
const LAYERS = [...PRODUCT_FOLDERS, "bench", "scripts"];

/** Top-level folders of test/ that are a kind of test across layers, not one layer's tests. */
const CROSS_CUTTING: Readonly<Record<string, string>> = {
  architecture: "the layering of ARCHITECTURE.md, the code map, doc citations and links, and this layout",
  conformance: "the reference implementation's recorded behaviour, replayed through checker and interpreter",
  differential: "generated expressions and values run by grammar, checker and interpreter against CPython",
  golden: "the CLI's exact output in every format, and the specs it is produced from",
  hostile: "attacks and faults through the real entry points (MCP server, CLI, file store)",
  property: "well-typed expressions never raise: the checker's types against the interpreter's values",
  walkthrough:
    "a newcomer's first hour as the README tells it, from the packed tarball (run by scripts/ci-distribution.sh)",
  support: "spec generators, mutators, examples and oracles shared by tests of many layers",
};

/** Folder names that, anywhere under a layer's test folder, hold helpers or data, not tests of a source folder. */
const HELPER_FOLDERS: Readonly<Record<string, string>> = {
  support: "helpers of the tests beside it",
  fixtures: "input files of the tests beside it",
  corpus: "the fuzzer's seeded-defect specs (defects and controls)",
};

/** Folders under a layer's test folder without a source folder of that path (the folder and all below it). */
const UNMIRRORED: Readonly<Record<string, string>> = {
  "test/stdlib/values/tables":
    "CPython-generated expectation tables of test/stdlib/values/ (scripts/gen-cpython-value-tables.py)",
  "test/checker/rule-fixtures": "one folder of valid/invalid specs per diagnostic code (see its README)",
  "test/checker/pipeline": "checkSpec end to end: determinism, the examples, stress, prototype keys",
  "test/checker/services/assist":
    "checker/services/ is flat: its completion, hover, signature and token tests",
  "test/checker/services/navigation": "checker/services/ is flat: its definition, outline and rename tests",
  "test/interpreter/conformance": "the reference's recorded scenarios replayed through the interpreter's API",
  "test/interpreter/properties": "fast-check properties of whole flow sessions through the interpreter's API",
  "test/interpreter/flow-tool-functions": "interpreter/flow/'s tool functions, one on a test transaction",
  "test/interpreter/engine/crash": "SIGKILL crash tests of interpreter/engine/ (child processes)",
  "test/cli/mcp-cli": "cli/mcp-commands/ (the `stratumc mcp` commands) and the stratum-mcp bundle",
  "test/lsp/nvim": "the Neovim configuration of test/lsp/neovim.test.ts",
  "test/fuzzer/reference-specs":
    "the reference implementation's specs (scripts/extract-reference-specs.mjs) and the fuzz survey over them",
  "test/fuzzer/blind-properties":
    "property specs written from the user docs alone, their predicted and actual verdicts (RESULTS.md)",
};

/** Source folders with .ts files whose tests are neither at their path nor at their parent's. */
const UNTESTED_HERE: Readonly<Record<string, string>> = {
  "install/generated/skills":
    "generated from assets/ (test/scripts/generated.test.ts); installed by the tests of test/install/",
};

const SKIPPED = new Set(["node_modules", "dist", "__pycache__"]);

/** Every file under the given top-level folders, relative to the repository, `/`-separated. */
function filesUnder(roots: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of readdirSync(join(REPO, rel), { withFileTypes: true })) {
      if (entry.name.startsWith(".") || SKIPPED.has(entry.name)) continue;
      const path = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  for (const root of roots) walk(root);
  return files;
}

/** Every folder holding a file of the list, directly or below. */
function foldersOf(files: readonly string[]): Set<string> {
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split("/");
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join("/"));
  }
  return folders;
}

const parentOf = (folder: string): string => folder.slice(0, Math.max(folder.lastIndexOf("/"), 0));

/** (a) Top-level folders of test/ that are neither a layer nor a cross-cutting kind. */
function unknownTopLevel(files: readonly string[]): string[] {
  return [...foldersOf(files)]
    .filter((f) => f.startsWith("test/") && f.split("/").length === 2)
    .filter((f) => {
      const name = f.slice("test/".length);
      return !LAYERS.includes(name) && CROSS_CUTTING[name] === undefined;
    })
    .sort();
}

/** (b) Folders under a layer's test folder without a source folder of the same path. */
function unmirrored(files: readonly string[]): string[] {
  const folders = foldersOf(files);
  return [...folders]
    .filter((f) => f.startsWith("test/") && f.split("/").length > 2 && LAYERS.includes(f.split("/")[1]!))
    .filter((f) => !f.split("/").some((name) => HELPER_FOLDERS[name] !== undefined))
    .filter((f) => !Object.keys(UNMIRRORED).some((u) => f === u || f.startsWith(`${u}/`)))
    .filter((f) => !folders.has(f.slice("test/".length)))
    .sort();
}

/** (c) Source folders with .ts files with no test folder at their path nor at their parent's. */
function untested(files: readonly string[]): string[] {
  const folders = foldersOf(files);
  const sourceFolders = new Set(
    files.filter((f) => LAYERS.includes(f.split("/")[0]!) && f.endsWith(".ts")).map(parentOf),
  );
  return [...sourceFolders]
    .filter((f) => UNTESTED_HERE[f] === undefined)
    .filter((f) => {
      const parent = parentOf(f);
      return !folders.has(`test/${f}`) && (parent === "" || !folders.has(`test/${parent}`));
    })
    .sort();
}

describe("the layout of test/", () => {
  const files = filesUnder(["test", ...LAYERS]);
  const folders = foldersOf(files);

  it("has at its top only source layers and the cross-cutting kinds", () => {
    expect(unknownTopLevel(files)).toEqual([]);
  });

  it("has under each layer's test folder only folders that mirror a source folder", () => {
    expect(unmirrored(files)).toEqual([]);
  });

  it("has a test folder for every source folder with .ts files, at its path or its parent's", () => {
    expect(untested(files)).toEqual([]);
  });

  it("lists only exceptions that exist and are still needed", () => {
    expect(Object.keys(CROSS_CUTTING).filter((k) => !folders.has(`test/${k}`))).toEqual([]);
    expect(Object.keys(CROSS_CUTTING).filter((k) => LAYERS.includes(k))).toEqual([]);
    expect(
      Object.keys(UNMIRRORED).filter((u) => !folders.has(u) || folders.has(u.slice("test/".length))),
    ).toEqual([]);
    expect(
      Object.keys(UNTESTED_HERE).filter(
        (u) => !folders.has(u) || folders.has(`test/${u}`) || folders.has(`test/${parentOf(u)}`),
      ),
    ).toEqual([]);
  });
});

describe("the layout checks bite", () => {
  const tree = [
    "checker/check-spec.ts",
    "checker/yaml/load.ts",
    "checker/rules/flows/recursion.ts",
    "interpreter/eval/evaluate.ts",
    "test/checker/check-spec.test.ts",
    "test/checker/yaml/load.test.ts",
    "test/checker/yaml/support.ts",
    "test/checker/rules/recursion.test.ts",
    "test/interpreter/eval/evaluate.test.ts",
    "test/golden/check.json.expected",
  ];

  it("finds nothing wrong in a mirrored tree", () => {
    expect(unknownTopLevel(tree)).toEqual([]);
    expect(unmirrored(tree)).toEqual([]);
    expect(untested(tree)).toEqual([]);
  });

  it("(a) reports a top-level test folder that is neither a layer nor a cross-cutting kind", () => {
    expect(unknownTopLevel([...tree, "test/values/repr.test.ts", "test/fuzz/corpus/a.stratum.yaml"])).toEqual(
      ["test/fuzz", "test/values"],
    );
  });

  it("(b) reports a test folder without a source folder of the same path, but not a helper folder", () => {
    const wrong = [
      ...tree,
      "test/checker/foo/foo.test.ts",
      "test/interpreter/flows/plan.test.ts",
      "test/checker/yaml/fixtures/a.stratum.yaml",
      "test/interpreter/support/clock.ts",
    ];
    expect(unmirrored(wrong)).toEqual(["test/checker/foo", "test/interpreter/flows"]);
  });

  it("(c) reports a source folder with .ts files whose tests are neither at its path nor at its parent's", () => {
    const bare = tree.filter((f) => !f.startsWith("test/interpreter/"));
    expect(untested(bare)).toEqual(["interpreter/eval"]);
    expect(untested(tree.filter((f) => !f.startsWith("test/checker/rules/")))).toEqual([
      "checker/rules/flows",
    ]);
    expect(untested([...bare, "test/interpreter/budget.test.ts"])).toEqual([]);
    expect(untested([...bare, "test/interpreter/eval/budget.test.ts", "grammar/parse.ts"])).toEqual([
      "grammar",
    ]);
    expect(untested([...bare, "test/interpreter/eval/budget.test.ts", "mcp/data/table.json"])).toEqual([]);
  });
});
