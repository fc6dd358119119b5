// Step kinds as data, checker side: no product file of checker/, lsp/, mcp/ or cli/ names a step
// kind as a string literal ("race", 'race', `race`) outside the places a kind is allowed to be
// named — its descriptors (any `kinds/` folder: checker/kinds/<kind>.ts and the helpers beside
// them, checker/rules/kinds/), the kind table checker/base/step-kinds.ts, and (checker only) the
// rule folders named after a kind (checker/rules/<kind>/: the kind's own rules). Code that needs
// to know something of a kind asks the registry (checker/kinds/index.ts). The checks are proved to
// bite on synthetic sources.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { STEP_KINDS, type StepKind } from "../../checker/index";
import { REPO } from "./cruise";

const FOLDERS = ["checker", "lsp", "mcp", "cli"];

/** Kind names too common as words to police: each is also a key, a mode or a YAML value. */
const EXEMPT_KINDS: Readonly<Partial<Record<StepKind, string>>> = {
  function: "also the step key `function:` and the function of a gate, named everywhere",
  flow: "also the step key `flow:`, the `flows:` block and every flow's state",
  inline: "also how the reference names an intent step, in messages and payloads",
  gate: "also `mode: gate` of functions, gate routes and gate tools",
};

const POLICED: readonly StepKind[] = STEP_KINDS.filter((k) => EXEMPT_KINDS[k] === undefined);

/** Where a kind may be named: descriptors, the kind table, and the checker's rule folders named after a kind. */
function allowed(path: string): boolean {
  if (/(^|\/)kinds\//.test(path)) return true;
  if (path === "checker/base/step-kinds.ts") return true;
  const rules = /^checker\/rules\/([^/]+)\//.exec(path);
  return rules !== null && (STEP_KINDS as readonly string[]).includes(rules[1] ?? "");
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === "node_modules" || e.name === "generated") return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? tsFiles(path) : e.name.endsWith(".ts") ? [path] : [];
  });
}

/** `line: kind` for each line of `source` that names a policed kind as a string literal. */
function kindLiterals(source: string, kinds: readonly string[]): string[] {
  const hits: string[] = [];
  source.split("\n").forEach((line, i) => {
    for (const kind of kinds) {
      if (new RegExp(`["'\`]${kind}["'\`]`).test(line)) hits.push(`${i + 1}: ${kind}`);
    }
  });
  return hits;
}

function hitsIn(folder: string): string[] {
  return tsFiles(join(REPO, folder)).flatMap((file) => {
    const path = relative(REPO, file).split("\\").join("/");
    if (allowed(path)) return [];
    return kindLiterals(readFileSync(file, "utf8"), POLICED).map((hit) => `${path}:${hit}`);
  });
}

describe("step kinds are named only by their descriptors (checker, lsp, mcp, cli)", () => {
  it("polices every kind but the generic words, each exempt with its reason", () => {
    expect(POLICED).toEqual(["decompose", "parallel_dispatch", "quorum", "race", "debate"]);
    for (const reason of Object.values(EXEMPT_KINDS)) expect(reason).not.toBe("");
  });

  for (const folder of FOLDERS) {
    it(`${folder}/ names no kind outside its kinds/ folders`, () => {
      expect(hitsIn(folder)).toEqual([]);
    });
  }
});

describe("the kind-name check bites", () => {
  it("finds a kind in any quote, on its line, and not inside a longer word or a key", () => {
    expect(kindLiterals('if (step.kind === "race") {}', POLICED)).toEqual(["1: race"]);
    expect(kindLiterals("\nconst k = 'quorum';", POLICED)).toEqual(["2: quorum"]);
    expect(kindLiterals("const k = `debate`;", POLICED)).toEqual(["1: debate"]);
    expect(kindLiterals('const s = "type: race";', POLICED)).toEqual([]);
    expect(kindLiterals("const parts = { race: null };", POLICED)).toEqual([]);
    expect(kindLiterals('const f = "function";', POLICED)).toEqual([]);
  });

  it("allows descriptors, the table and the rule folders named after a kind, nothing else", () => {
    expect(allowed("checker/kinds/race.ts")).toBe(true);
    expect(allowed("checker/kinds/parallel_dispatch/keys.ts")).toBe(true);
    expect(allowed("checker/rules/kinds/only-key.ts")).toBe(true);
    expect(allowed("checker/base/step-kinds.ts")).toBe(true);
    expect(allowed("checker/rules/quorum/SPEC-QUORUM-THRESHOLD-INVALID.ts")).toBe(true);
    expect(allowed("checker/rules/parallel/SPEC-STEP-TYPE-MISMATCH.ts")).toBe(false);
    expect(allowed("checker/ir/build.ts")).toBe(false);
    expect(allowed("cli/graph/model.ts")).toBe(false);
  });
});
