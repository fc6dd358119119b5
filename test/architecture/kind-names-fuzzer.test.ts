// Step kinds are data (checker/base/step-kinds.ts): the fuzzer knows a kind only through its
// descriptor, `fuzzer/**/kinds/<kind>.ts` and the helpers beside it. This test fails, naming
// file:line, where a product file of fuzzer/ outside a `kinds/` folder spells a kind's name as a
// string literal ("race", 'race' or `race`); the scan is proved to bite on synthetic sources.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STEP_KINDS } from "../../checker/index";
import { REPO } from "./cruise";

/** Kind names too common as words to police: a literal of them is mostly not about the kind. */
const EXEMPT: Readonly<Record<string, string>> = {
  function: "also the `function:` key, a function's declaration kind and a JavaScript word",
  flow: "also the `flow:` key, a finding's flow and a reference's scope",
  inline: "also a word of the language's docs and diagnostics",
  gate: "also a function's `mode: gate` and the gate tools' vocabulary",
};

const POLICED = STEP_KINDS.filter((k) => !Object.hasOwn(EXEMPT, k));

/** The layer's folder and the places allowed to name a kind: its descriptors and their helpers. */
const LAYER = "fuzzer";
const ALLOWED = /(^|\/)kinds\//;

/** `file:line: "kind"` for every kind name spelled as a whole string literal in `text`. */
function kindLiterals(file: string, text: string, kinds: readonly string[]): string[] {
  const names = kinds.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  const literal = new RegExp(`(["'\`])(${names})\\1`, "g");
  const hits: string[] = [];
  text.split("\n").forEach((line, i) => {
    for (const m of line.matchAll(literal)) hits.push(`${file}:${i + 1}: ${m[0]}`);
  });
  return hits;
}

/** Every `.ts` file under `root`, relative to the repository, `/`-separated. */
function tsFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of readdirSync(join(REPO, rel), { withFileTypes: true })) {
      const path = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts")) out.push(path);
    }
  };
  walk(root);
  return out.sort();
}

function offenders(files: readonly string[], read: (file: string) => string): string[] {
  return files.filter((f) => !ALLOWED.test(f)).flatMap((f) => kindLiterals(f, read(f), POLICED));
}

describe("the fuzzer names step kinds only in its kind descriptors", () => {
  it("polices every kind but the generic words, each exempt for a reason", () => {
    expect(POLICED).toEqual(["decompose", "parallel_dispatch", "quorum", "race", "debate"]);
    expect(POLICED.length + Object.keys(EXEMPT).length).toBe(STEP_KINDS.length);
    for (const k of Object.keys(EXEMPT)) expect(STEP_KINDS).toContain(k);
  });

  it("finds no kind name as a string literal outside fuzzer/**/kinds/", () => {
    const files = tsFiles(LAYER);
    expect(files.length).toBeGreaterThan(30);
    expect(offenders(files, (f) => readFileSync(join(REPO, f), "utf8"))).toEqual([]);
  });

  it("has a descriptor file for every kind", () => {
    const descriptors = new Set(tsFiles(`${LAYER}/run/kinds`));
    const missing = STEP_KINDS.filter((k) => !descriptors.has(`${LAYER}/run/kinds/${k}.ts`));
    expect(missing).toEqual([]);
  });

  it("bites: a literal in any quote outside kinds/ is named by file and line", () => {
    const sources: Record<string, string> = {
      "fuzzer/run/driver.ts": "if (step.kind === \"race\") x();\nconst y = 1;\nf('quorum', `debate`);",
      "fuzzer/values/shapes.ts": "// a comment on race steps, not a literal\nconst s = `parallel_dispatch`;",
      "fuzzer/run/kinds/race.ts": 'export const name = "race";',
      "fuzzer/run/kinds/decompose/task-lists.ts": 'const k = "decompose";',
      "fuzzer/explore/random.ts": 'if (s.kind === "gate" || s.kind === "flow") continue; const r = "racer";',
    };
    expect(offenders(Object.keys(sources), (f) => sources[f]!)).toEqual([
      'fuzzer/run/driver.ts:1: "race"',
      "fuzzer/run/driver.ts:3: 'quorum'",
      "fuzzer/run/driver.ts:3: `debate`",
      "fuzzer/values/shapes.ts:2: `parallel_dispatch`",
    ]);
  });
});
