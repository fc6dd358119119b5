// A step kind is data (checker/base/step-kinds.ts) plus one descriptor per layer (each layer's
// `kinds/` folder: checker/kinds/, interpreter/flow/kinds/, fuzzer/run/kinds/, with the helpers only
// that kind uses beside its descriptor). No other product file names a kind as a string literal
// ("race", 'race', `race`): code asks the layer's registry. The checker's rule folders named after
// a kind (checker/rules/<kind>/) are that kind's own rules. Adding a kind is a row in the table, a
// descriptor per layer and a fixture folder; this test fails, naming file and line, where a kind
// leaks out. The checks are proved to bite on synthetic sources.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { STEP_KINDS, type StepKind } from "../../checker/index";
import { REPO } from "./cruise";
import { literals } from "./ts-literals";

/** Every folder of product code. */
const PRODUCT = [
  "stdlib",
  "grammar",
  "checker",
  "interpreter",
  "fuzzer",
  "host",
  "cli",
  "lsp",
  "mcp",
  "ui",
  "install",
];

/** Each layer's registry of kind descriptors: one `<kind>.ts` per kind. */
const REGISTRIES = ["checker/kinds", "interpreter/flow/kinds", "fuzzer/run/kinds"];

/** Kind names that are everyday words of the language and the runtime, too common to police. */
const EXEMPT: Readonly<Partial<Record<StepKind, string>>> = {
  function: "also the step key `function:`, a step_mode, a payload key and a function step's record field",
  flow: "also the step key `flow:`, the `flows:` block and the sub-flow machinery's child flow",
  inline: "also how the reference names an intent step, in messages and payloads",
  gate: "also `mode: gate` of functions, gate routes, gate tools and a persisted status",
  judge: "also the step key `judge:` that selects the kind, the stratum_judge tool and its payload",
};

const POLICED = new Set<string>(STEP_KINDS.filter((k) => EXEMPT[k] === undefined));

/** Files that name a kind's word as something else, each with its reason. */
const OTHER_MEANING: Readonly<Record<string, string>> = {
  "mcp/output-schemas.ts":
    "the answer status parallel_dispatch, which every fan-out kind's dispatch payload has",
};

/** Where a kind may be named: descriptors, the kind table, and the rule folders named after a kind. */
function allowed(path: string): boolean {
  if (/(^|\/)kinds\//.test(path)) return true;
  if (OTHER_MEANING[path] !== undefined) return true;
  if (path === "checker/base/step-kinds.ts") return true;
  const rules = /^checker\/rules\/([^/]+)\//.exec(path);
  return rules !== null && (STEP_KINDS as readonly string[]).includes(rules[1] ?? "");
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === "node_modules" || e.name === "generated") return [];
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Every string literal equal to a policed kind: `file:line "kind"`. */
function kindLiterals(file: string, text: string): string[] {
  return literals(text)
    .filter((l) => POLICED.has(l.text))
    .map((l) => `${file}:${l.line} ${JSON.stringify(l.text)}`);
}

function scan(): { readonly outside: string[]; readonly inside: string[] } {
  const outside: string[] = [];
  const inside: string[] = [];
  for (const folder of PRODUCT) {
    for (const path of tsFiles(join(REPO, folder))) {
      const file = relative(REPO, path).split("\\").join("/");
      (allowed(file) ? inside : outside).push(...kindLiterals(file, readFileSync(path, "utf8")));
    }
  }
  return { outside, inside };
}

describe("step kinds are named only by their descriptors", () => {
  const { outside, inside } = scan();

  it("polices every kind but the everyday words, each exempt with its reason", () => {
    expect([...POLICED]).toEqual(["decompose", "parallel_dispatch", "pipeline", "quorum", "race", "debate"]);
    for (const reason of Object.values(EXEMPT)) expect(reason).not.toBe("");
  });

  it("names no kind outside the descriptors, the table and the kinds' own rule folders", () => {
    expect(outside).toEqual([]);
  });

  it("finds the kinds' names in their descriptors (the scan sees literals)", () => {
    for (const kind of POLICED)
      expect(inside.some((hit) => hit.endsWith(` ${JSON.stringify(kind)}`))).toBe(true);
  });

  it("has a descriptor file for every kind in every layer's registry", () => {
    const missing = REGISTRIES.flatMap((dir) =>
      STEP_KINDS.filter((k) => !existsSync(join(REPO, dir, `${k}.ts`))).map((k) => `${dir}/${k}.ts`),
    );
    expect(missing).toEqual([]);
  });
});

describe("the kind-name check bites", () => {
  it("reports a literal in any quote with its file and line, not a comment, a key or a longer text", () => {
    const text = [
      '// a "race" in a comment',
      'const a = "race_pending";',
      "const b = `race`;",
      "type T = 'debate';",
      'if (step.kind === "quorum") {}',
      "const parts = { race: null };",
      'const f = "function";',
      'const s = "type: race";',
    ].join("\n");
    expect(kindLiterals("x.ts", text)).toEqual(['x.ts:3 "race"', 'x.ts:4 "debate"', 'x.ts:5 "quorum"']);
  });

  it("allows descriptors, the table and the rule folders named after a kind, nothing else", () => {
    expect(allowed("checker/kinds/race.ts")).toBe(true);
    expect(allowed("checker/kinds/parallel_dispatch/keys.ts")).toBe(true);
    expect(allowed("interpreter/flow/kinds/shared/member-kind.ts")).toBe(true);
    expect(allowed("fuzzer/run/kinds/debate.ts")).toBe(true);
    expect(allowed("checker/base/step-kinds.ts")).toBe(true);
    expect(allowed("checker/rules/quorum/SPEC-QUORUM-THRESHOLD-INVALID.ts")).toBe(true);
    expect(allowed("checker/rules/parallel/SPEC-STEP-TYPE-MISMATCH.ts")).toBe(false);
    expect(allowed("checker/ir/build.ts")).toBe(false);
    expect(allowed("ui/views.ts")).toBe(false);
  });
});
