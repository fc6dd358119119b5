// The layout of the checker's rule files: every file of checker/ that declares a rule is named after
// its code (`<CODE>.ts`, one rule per file) — in checker/rules/, graph/rules/, spec-expr/rules/,
// yaml/rules/, schema/rules/, control/rules/, fuzz/, suppressions/ and portable/ alike —, every
// file named like a code declares exactly that rule, every code of the catalogue has its file —
// except the codes of the two table-driven key rules (checker/rules/kinds/: SPEC-<KIND>-MISSING-KEY
// and SPEC-<KIND>-ONLY-KEY), which the kind's descriptor checker/kinds/<kind>.ts declares —, and
// no file of checker/rules/ walks steps, flows, functions or contracts by hand — rules say what
// they visit and the checker's one walk (checker/rules/walk.ts) calls them. A plain source scan;
// the checks are proved to bite on synthetic sources.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { STEP_KINDS } from "../../../checker/base/step-kinds";
import { CATALOGUE } from "../../../checker/catalogue";
import { SEMANTIC_RULES } from "../../../checker/rules/index";
import { KIND_KEY_RULES } from "../../../checker/rules/kinds/index";

const REPO = join(__dirname, "..", "..", "..");
const CHECKER_DIR = join(REPO, "checker");
const RULES_DIR = join(CHECKER_DIR, "rules");
/** Generated code, not rule declarations. */
const GENERATED_DIR = join(CHECKER_DIR, "schema", "generated");

/** The kinds' descriptors, which declare the codes of the table-driven key rules. */
const KINDS_DIR = join(CHECKER_DIR, "kinds");

/** The walk itself, and the helpers it (and checker/portable) iterate with. */
const WALKERS = new Set(["walk.ts", "support.ts", "contracts/definitions.ts"]);

const CODE_FILE = /^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\.ts$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** The source without comments and string literals, so that examples such as `$.steps.a` do not count. */
function code(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/[^\n]*/g, "")
    .replace(/`(?:[^`\\]|\\.)*`/g, "``")
    .replace(/"(?:[^"\\\n]|\\.)*"/g, '""')
    .replace(/'(?:[^'\\\n]|\\.)*'/g, "''");
}

/** The codes a source declares with `defineRule({ code: "…" })`. */
function declaredCodes(source: string): string[] {
  return [...source.matchAll(/defineRule\(\{\s*code:\s*"([A-Z0-9-]+)"/g)].map((m) => m[1] ?? "");
}

/** Why a file breaks the naming rule, or null. */
function namingProblem(fileName: string, source: string): string | null {
  const codes = declaredCodes(source);
  if (CODE_FILE.test(fileName)) {
    const stem = fileName.slice(0, -".ts".length);
    if (codes.length !== 1 || codes[0] !== stem) return `declares [${codes.join(", ")}], not ${stem}`;
    return null;
  }
  return codes.length === 0 ? null : `declares [${codes.join(", ")}] but is not named after its code`;
}

/**
 * Why a descriptor file breaks the rule, or null: `<kind>.ts` may declare only the codes the
 * table-driven key rules report for that kind (`owned`), and every one of them.
 */
function descriptorProblem(
  path: string,
  source: string,
  owned: ReadonlyMap<string, readonly string[]>,
): string | null {
  const codes = declaredCodes(source);
  const kind = /^([a-z_]+)\.ts$/.exec(path)?.[1];
  const expected = kind === undefined ? [] : (owned.get(kind) ?? []);
  if (codes.join() === expected.join()) return null;
  return `declares [${codes.join(", ")}], not the codes of its key rules [${expected.join(", ")}]`;
}

/** The hand-written walks over the model in a source (loops over steps, flows, functions, contracts). */
function handWalks(source: string): string[] {
  const walks =
    /\b(?:namedSteps|gateSteps|fieldDefinitions)\(|\.(?:steps|flows|functions|contracts)\b(?:\s*\)|\.(?:forEach|map|filter|some|every|entries)\b)/g;
  return [...code(source).matchAll(walks)].map((m) => m[0]);
}

function read(dir: string) {
  return filesUnder(dir).map((path) => ({
    path: relative(dir, path).split("\\").join("/"),
    name: path.split(/[\\/]/).pop() ?? "",
    source: readFileSync(path, "utf8"),
  }));
}

const files = read(RULES_DIR);
// The kinds' descriptors declare codes not named after them (checked below).
const checkerFiles = read(CHECKER_DIR).filter(
  (f) =>
    !f.path.startsWith(`${relative(CHECKER_DIR, GENERATED_DIR)}/`) &&
    !f.path.startsWith(`${relative(CHECKER_DIR, KINDS_DIR)}/`),
);
const kindFiles = read(KINDS_DIR);

/** Each kind's table-driven codes (missing key, then only key), as the rules report them. */
const TABLE_CODES: ReadonlyMap<string, readonly string[]> = new Map(
  STEP_KINDS.map((k) => [k, [...KIND_KEY_RULES[k].missing, ...KIND_KEY_RULES[k].only].map((r) => r.code)]),
);

describe("checker/rules/", () => {
  it("names every rule file of checker/ after the one code it declares", () => {
    const problems = checkerFiles.flatMap((f) => {
      const p = namingProblem(f.name, f.source);
      return p === null ? [] : [`${f.path}: ${p}`];
    });
    expect(problems).toEqual([]);
  });

  it("covers the rule folders outside checker/rules/ (they hold code-named files)", () => {
    const folders = new Set(checkerFiles.filter((f) => CODE_FILE.test(f.name)).map((f) => dirname(f.path)));
    for (const folder of [
      "graph/rules",
      "spec-expr/rules",
      "yaml/rules",
      "schema/rules",
      "control/rules",
      "fuzz",
      "suppressions",
      "portable",
    ]) {
      expect(folders.has(folder), folder).toBe(true);
    }
  });

  it("has a file named after every code of the catalogue", () => {
    const named = new Set(checkerFiles.filter((f) => CODE_FILE.test(f.name)).map((f) => f.name.slice(0, -3)));
    const tableCodes = new Set([...TABLE_CODES.values()].flat());
    expect([...CATALOGUE.keys()].filter((code) => !named.has(code) && !tableCodes.has(code))).toEqual([]);
  });

  it("declares catalogued rules only, and at least every semantic and expression rule", () => {
    const codes = files.flatMap((f) => declaredCodes(f.source));
    expect(codes.filter((c) => !CATALOGUE.has(c))).toEqual([]);
    expect(codes.filter((c) => c.startsWith("EXPR-")).length).toBe(18);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("declares each table-driven key code in its kind's descriptor, and every semantic rule once", () => {
    const problems = kindFiles.flatMap((f) => {
      const p = descriptorProblem(f.path, f.source, TABLE_CODES);
      return p === null ? [] : [`checker/kinds/${f.path}: ${p}`];
    });
    expect(problems).toEqual([]);
    // Six kinds declare a MISSING-KEY code, five an ONLY-KEY code (decompose has no keys of its own).
    expect([...TABLE_CODES.values()].flat().length).toBe(11);
    const declared = [...files, ...kindFiles].flatMap((f) => declaredCodes(f.source));
    expect(
      SEMANTIC_RULES.map((r) => r.code).filter((c) => declared.filter((d) => d === c).length !== 1),
    ).toEqual([]);
  });

  it("has no rule file that walks steps, flows, functions or contracts by hand", () => {
    const walking = files
      .filter((f) => !WALKERS.has(f.path))
      .flatMap((f) =>
        handWalks(f.source).length === 0 ? [] : [`${f.path}: ${handWalks(f.source).join(", ")}`],
      );
    expect(walking).toEqual([]);
  });
});

describe("the rule-file checks bite", () => {
  const rule = (code: string) =>
    `export const X = defineRule({\n  code: "${code}",\n  severity: "error",\n});\n`;

  it("reports a rule file not named after its code, and a code file with another or a second rule", () => {
    expect(namingProblem("SPEC-GATE-NEXT.ts", rule("SPEC-GATE-NEXT"))).toBeNull();
    expect(namingProblem("next.ts", rule("SPEC-GATE-NEXT"))).toMatch(/not named after its code/);
    expect(namingProblem("SPEC-GATE-NEXT.ts", rule("SPEC-GATE-ON-FAIL"))).toMatch(/not SPEC-GATE-NEXT/);
    expect(namingProblem("SPEC-GATE-NEXT.ts", rule("SPEC-GATE-NEXT") + rule("SPEC-GATE-ON-FAIL"))).toMatch(
      /not SPEC-GATE-NEXT/,
    );
    expect(namingProblem("support.ts", "export function helper() {}")).toBeNull();
  });

  it("reports a descriptor that declares a code its key rules do not report, or lacks one", () => {
    const owned = new Map([["race", ["SPEC-RACE-MISSING-KEY"]]]);
    expect(descriptorProblem("race.ts", rule("SPEC-RACE-MISSING-KEY"), owned)).toBeNull();
    expect(descriptorProblem("race.ts", rule("SPEC-GATE-NEXT"), owned)).toMatch(
      /not the codes of its key rules/,
    );
    expect(descriptorProblem("race.ts", "export const RACE = {};", owned)).toMatch(/declares \[\]/);
    expect(descriptorProblem("types.ts", rule("SPEC-RACE-MISSING-KEY"), owned)).toMatch(/declares/);
    expect(descriptorProblem("types.ts", "export interface X {}", owned)).toBeNull();
  });

  it("reports loops over the model's lists, not examples or paths in strings", () => {
    expect(handWalks("for (const step of namedSteps(model)) {}")).toEqual(["namedSteps("]);
    expect(handWalks("for (const flow of model.flows) {}")).toEqual([".flows)"]);
    expect(handWalks("for (const s of flow.steps) {}")).toEqual([".steps)"]);
    expect(handWalks("model.functions.forEach((fn) => {})")).toEqual([".functions.forEach"]);
    expect(handWalks("for (const site of fieldDefinitions(model)) {}")).toEqual(["fieldDefinitions("]);
    expect(handWalks('const bad = "- {source: $.steps.plan.output.tasks}";')).toEqual([]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the scan's input is source text holding a template
    expect(handWalks("const path = `flows.${step.flow.name}.steps.${step.id}`;")).toEqual([]);
    expect(handWalks("// for (const flow of model.flows)")).toEqual([]);
    expect(handWalks('on.onStep(["gate"], (step) => {});')).toEqual([]);
  });
});
