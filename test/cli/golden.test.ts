// Golden outputs of the built CLI (test/golden/*.expected) for the specs in test/golden/specs plus
// test/golden/stdin-not-yaml.txt on standard input (it is not YAML, so it cannot live among the
// *.yaml files Biome formats): `check` in every format, `graph` in both formats, `explain`.
// UPDATE_GOLDEN=1 rewrites the files; review the diff before committing — a golden is a claim
// about what users see.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE } from "../../checker/catalogue";
import { ensureBundle, REPO, stratumc } from "./run-cli";
import { SARIF_SUBSET_SCHEMA } from "./sarif-schema";

const GOLDEN = join(REPO, "test/golden");
const UPDATE = process.env.UPDATE_GOLDEN === "1";
/** No colour whatever the environment of the test run says. */
const PLAIN_ENV = { FORCE_COLOR: undefined, NO_COLOR: "1" };

beforeAll(ensureBundle);

function golden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (UPDATE) writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, "utf8"));
}

const NOT_YAML = readFileSync(join(GOLDEN, "stdin-not-yaml.txt"), "utf8");

function run(args: readonly string[]) {
  return stratumc(args, { cwd: GOLDEN, env: PLAIN_ENV, input: NOT_YAML });
}

interface SarifLog {
  runs: {
    tool: { driver: { rules: { id: string }[] } };
    results: { ruleId: string; ruleIndex?: number }[];
  }[];
}

describe("golden: stratumc check specs", () => {
  it("pretty", () => {
    const r = run(["check", "specs", "-"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("");
    golden("check.pretty.expected", r.stdout);
  });

  it("json", () => {
    const r = run(["check", "specs", "-", "--format", "json"]);
    expect(r.status).toBe(1);
    golden("check.json.expected", r.stdout);
  });

  it("github", () => {
    const r = run(["check", "specs", "-", "--format", "github"]);
    expect(r.status).toBe(1);
    golden("check.github.expected", r.stdout);
  });

  it("sarif (the rule list is checked against the catalogue, the golden keeps the rules results use)", () => {
    const r = run(["check", "specs", "-", "--format", "sarif"]);
    expect(r.status).toBe(1);
    const shape = new Ajv({ allErrors: true, strict: true }).compile(SARIF_SUBSET_SCHEMA);
    expect(shape(JSON.parse(r.stdout)), JSON.stringify(shape.errors)).toBe(true);
    const log = JSON.parse(r.stdout) as SarifLog;
    const run0 = log.runs[0];
    if (run0 === undefined) throw new Error("no run");
    const rules = run0.tool.driver.rules;
    expect(rules.map((x) => x.id)).toEqual([...CATALOGUE.keys(), "IO-READ"]);
    const used = new Set(run0.results.map((x) => x.ruleId));
    for (const result of run0.results) expect(rules[result.ruleIndex ?? -1]?.id).toBe(result.ruleId);
    // Keep the golden stable when unrelated rules change: only the rules the results refer to.
    const kept = rules.filter((x) => used.has(x.id));
    run0.tool.driver.rules = kept;
    for (const result of run0.results) result.ruleIndex = kept.findIndex((x) => x.id === result.ruleId);
    golden("check.sarif.expected", `${JSON.stringify(log, null, 2)}\n`);
  });
});

describe("golden: stratumc graph and explain", () => {
  it("graph --format mermaid", () => {
    const r = run(["graph", "specs/clean.stratum.yaml"]);
    expect(r.status).toBe(0);
    golden("graph.mermaid.expected", r.stdout);
  });

  it("graph --format dot --flow", () => {
    const r = run(["graph", "specs/clean.stratum.yaml", "--format", "dot", "--flow", "reviewed_work"]);
    expect(r.status).toBe(0);
    golden("graph.dot.expected", r.stdout);
  });

  it("explain SUPPRESS-MALFORMED", () => {
    const r = run(["explain", "suppress-malformed"]);
    expect(r.status).toBe(0);
    // The installed docs are named by their path on this machine: the repository's, in a clone.
    golden("explain.expected", r.stdout.split(REPO).join("<package>"));
  });
});
