// `stratumc fuzz` on specs with properties, end to end: the JSON `properties` verdicts beside
// `soundness`, the violated property as a finding at its line (exit 1) with its witness in pretty
// output, SARIF and GitHub annotations, `check --deep`, and the built binary printing the same.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBundle, REPO } from "../run-cli";
import { run } from "./harness";

const HOLDING = "examples/release-properties.stratum.yaml";
const VIOLATED = "test/fuzzer/corpus/property-violated-1.stratum.yaml";
const FAST = ["--runs", "30"];

beforeAll(() => ensureBundle());

interface PropertyJson {
  readonly flow: string;
  readonly kind: string;
  readonly verdict: string;
  readonly line: number;
  readonly runs: number;
}

function file(out: string) {
  return (
    JSON.parse(out) as {
      files: { properties: Record<string, PropertyJson>; findings: { code: string; line: number }[] }[];
    }
  ).files[0]!;
}

describe("stratumc fuzz with properties", () => {
  it("the built binary prints each property's verdict beside soundness (json)", () => {
    const r = spawnSync(
      process.execPath,
      [join(REPO, "bin/stratumc.cjs"), "fuzz", HOLDING, ...FAST, "--format", "json"],
      {
        cwd: REPO,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1" },
      },
    );
    expect([r.status, r.stderr]).toEqual([0, ""]);
    const f = file(r.stdout);
    expect(Object.keys(f)).toEqual([
      "file",
      "seed",
      "runs",
      "paths",
      "exhaustive",
      "soundness",
      "properties",
      "findings",
    ]);
    expect(Object.entries(f.properties).map(([name, p]) => [name, p.flow, p.kind, p.line])).toEqual([
      ["approved_before_deploy", "release", "always", 58],
      ["ends", "release", "eventually", 61],
      ["bounded_build", "release", "never", 64],
      ["revise_rebuilds", "release", "leads_to", 67],
      ["deploys_what_was_built", "release", "always", 72],
    ]);
    for (const p of Object.values(f.properties)) {
      expect(["proven", "not_refuted"]).toContain(p.verdict);
      expect(Object.keys(p)).toEqual(["flow", "kind", "verdict", "line", "runs"]);
    }
    expect(f.findings.filter((x) => x.code === "FUZZ-PROPERTY-VIOLATED")).toEqual([]);
  });

  it("a violated property is an error at its line, with its witness (json and pretty)", async () => {
    const json = await run(["fuzz", VIOLATED, ...FAST, "--format", "json"]);
    expect(json.code).toBe(1);
    const f = file(json.out);
    expect(f.properties.approved_before_deploy?.verdict).toBe("violated");
    expect(f.findings.map((x) => [x.code, x.line])).toEqual([["FUZZ-PROPERTY-VIOLATED", 41]]);
    const pretty = await run(["fuzz", VIOLATED, ...FAST]);
    expect(pretty.out).toContain(`${VIOLATED}:41:3: error: property 'approved_before_deploy' (always)`);
    expect(pretty.out).toContain("= witness: 4 calls (plan → build → sign_off kill → deploy)");
    expect(pretty.out).toContain("  property approved_before_deploy (always, flow release): violated");
  });

  it("SARIF, GitHub annotations and check --deep carry the finding", async () => {
    const sarif = await run(["fuzz", VIOLATED, ...FAST, "--format", "sarif"]);
    const results = (JSON.parse(sarif.out) as { runs: { results: { ruleId: string }[] }[] }).runs[0]!.results;
    expect(results.map((x) => x.ruleId)).toEqual(["FUZZ-PROPERTY-VIOLATED"]);
    const github = await run(["fuzz", VIOLATED, ...FAST, "--format", "github"]);
    expect(github.out).toMatch(
      /^::error file=.*property-violated-1\.stratum\.yaml,line=41,.*FUZZ-PROPERTY-VIOLATED/m,
    );
    const deep = await run(["check", "--deep", VIOLATED, "--format", "json"]);
    expect(deep.code).toBe(1);
    expect(deep.out).toContain('"code": "FUZZ-PROPERTY-VIOLATED"');
  });
});
