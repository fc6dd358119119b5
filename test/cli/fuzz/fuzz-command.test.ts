// `stratumc fuzz` in process: exit codes, the exact JSON shape, byte-identical output for a seed,
// specs with checker errors, --flow, --save, the progress line on a terminal.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ProgressLine } from "../../../cli/fuzz/progress";
import { REPO } from "../run-cli";
import { BROKEN_EXAMPLE, CLEAN_EXAMPLE, DEFECT, DEFECT_LINE, run, testHost } from "./harness";

const DEFECT_ABSOLUTE = join(REPO, DEFECT);

const FAST = ["--runs", "30"];

interface JsonFinding {
  readonly code: string;
  readonly severity: string;
  readonly line: number;
  readonly flow: string | null;
  readonly step: string | null;
  readonly counterexample: { seed: number; input: object; calls: { tool: string }[] } | null;
}

interface JsonFile {
  readonly file: string;
  readonly runs: number;
  readonly paths: number;
  readonly exhaustive: boolean;
  readonly soundness: Record<string, object>;
  readonly findings: JsonFinding[];
}

function files(out: string): JsonFile[] {
  return (JSON.parse(out) as { files: JsonFile[] }).files;
}

const saveDir = mkdtempSync(join(tmpdir(), "stratumc-fuzz-save-"));
afterAll(() => rmSync(saveDir, { recursive: true, force: true }));

describe("stratumc fuzz", () => {
  it("exits 0 on a clean example, with no error findings", async () => {
    const r = await run(["fuzz", CLEAN_EXAMPLE, ...FAST, "--format", "json"]);
    expect([r.code, r.err]).toEqual([0, ""]);
    const [file] = files(r.out);
    expect(file?.runs).toBeGreaterThan(0);
    expect(file?.findings.filter((f) => f.severity === "error")).toEqual([]);
  });

  it("exits 1 on a seeded defect; the JSON has its keys in the documented order", async () => {
    const r = await run(["fuzz", DEFECT, ...FAST, "--format", "json"]);
    expect([r.code, r.err]).toEqual([1, ""]);
    expect(r.out.endsWith("}\n")).toBe(true);
    expect(r.out).toBe(`${JSON.stringify(JSON.parse(r.out), null, 2)}\n`);
    const top = JSON.parse(r.out) as { version: number; files: JsonFile[] };
    expect(Object.keys(top)).toEqual(["version", "files"]);
    expect(top.version).toBe(1);
    const [file] = top.files;
    expect(Object.keys(file!)).toEqual([
      "file",
      "seed",
      "runs",
      "paths",
      "exhaustive",
      "soundness",
      "properties",
      "findings",
    ]);
    expect(file!.file).toBe(DEFECT);
    expect(Object.keys(file!.soundness)).toEqual(["main"]);
    expect(Object.keys(file!.soundness.main!)).toEqual([
      "option_to_complete",
      "proper_completion",
      "no_dead_steps",
      "notes",
    ]);
    const finding = file!.findings.find((f) => f.code === "FUZZ-ENSURE-RAISES");
    expect(finding).toMatchObject({ severity: "error", line: DEFECT_LINE, flow: "main", step: "describe" });
    expect(Object.keys(finding!)).toEqual([
      "code",
      "severity",
      "message",
      "flow",
      "step",
      "line",
      "column",
      "end_line",
      "end_column",
      "related",
      "counterexample",
    ]);
    expect(Object.keys(finding!.counterexample!)).toEqual(["seed", "input", "calls"]);
    expect(finding!.counterexample!.calls[0]?.tool).toBe("stratum_plan");
  });

  it("prints the same bytes for the same seed (json and pretty)", async () => {
    for (const format of ["json", "pretty"]) {
      const args = ["fuzz", DEFECT, ...FAST, "--seed", "7", "--format", format];
      const first = await run(args);
      const second = await run(args);
      expect(second).toEqual(first);
      expect(first.code).toBe(1);
    }
  });

  it("prints each finding with its witness, the soundness of each flow and the summary (pretty)", async () => {
    const r = await run(["fuzz", DEFECT, ...FAST]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      `${DEFECT}:${DEFECT_LINE}:9: error: ensure 'len(result.risk_notes) <= 500' raised`,
    );
    expect(r.out).toMatch(
      /\n {2}= witness: \d+ calls? \(plan( → [a-z_ ]+)+\), input \{"branch": .*\} \(--save DIR writes it; stratumc replay FILE runs it\)\n\n/,
    );
    expect(r.out).toMatch(
      new RegExp(
        `\\n${DEFECT}: 30 runs, \\d+ paths(, exhaustive)?, seed 42\\n {2}main: option to complete [a-z ]+\\d*[a-z ]*, proper completion .*, no dead steps .*\\n\\n`,
      ),
    );
    expect(r.out.endsWith("1 error(s), 0 warning(s) in 1 file(s)\n")).toBe(true);
  });

  it("reports a spec with checker errors as check does, without fuzzing it", async () => {
    const json = await run(["fuzz", BROKEN_EXAMPLE, "--format", "json"]);
    expect(json.code).toBe(1);
    const [file] = files(json.out);
    expect(file).toMatchObject({ runs: 0, paths: 0, exhaustive: false, soundness: {}, properties: {} });
    expect(file!.findings.map((f) => [f.code, f.flow, f.step, f.counterexample])).toEqual([
      ["SPEC-DEPENDS-ON-UNKNOWN", null, null, null],
      ["SPEC-REF-UNKNOWN-STEP", null, null, null],
    ]);
    const check = await run(["check", BROKEN_EXAMPLE]);
    const pretty = await run(["fuzz", BROKEN_EXAMPLE]);
    const [checkDiagnostics] = check.out.split("2 error(s)");
    expect(pretty.out).toBe(
      `${checkDiagnostics}${BROKEN_EXAMPLE}: not fuzzed (the spec has errors)\n\n2 error(s), 0 warning(s) in 1 file(s)\n`,
    );
  });

  it("--flow judges that flow alone: no step of a flow it did not explore is called dead", async () => {
    // sub-flows: release runs build_component; fuzzing the child alone never plans release.
    const r = await run([
      "fuzz",
      "examples/sub-flows.stratum.yaml",
      "--flow",
      "build_component",
      ...FAST,
      "--format",
      "json",
    ]);
    expect([r.code, r.err]).toEqual([0, ""]);
    const [file] = files(r.out);
    expect(Object.keys(file?.soundness ?? {})).toEqual(["build_component"]);
    expect(file?.findings.filter((f) => f.code === "FUZZ-DEAD-STEP")).toEqual([]);
  });

  it("exits 2 for an unknown --flow, naming the flows there are", async () => {
    const r = await run(["fuzz", DEFECT, "--flow", "nope"]);
    expect(r).toEqual({
      code: 2,
      out: "",
      err: `stratumc: ${DEFECT}: no flow 'nope' in the spec (flows: main)\n`,
    });
  });

  it("exits 2 for bad option values and unreadable inputs", async () => {
    expect((await run(["fuzz", DEFECT, "--time-budget", "soon"])).code).toBe(2);
    expect((await run(["fuzz", DEFECT, "--max-steps", "0"])).code).toBe(2);
    const missing = await run(["fuzz", "missing.stratum.yaml"]);
    expect(missing.code).toBe(2);
    expect(missing.out).toContain(
      "missing.stratum.yaml:1:1: error: cannot read file: file not found [IO-READ]",
    );
  });

  it("--save writes one counterexample file per finding that has one", async () => {
    const r = await run(["fuzz", DEFECT, ...FAST, "--save", saveDir]);
    expect(r.code).toBe(1);
    const name = `ensure-raises-1-fuzz-ensure-raises-${DEFECT_LINE}.json`;
    expect(readdirSync(saveDir)).toContain(name);
    const path = join(saveDir, name);
    expect(r.out).toContain(`(saved to ${path}; stratumc replay ${path} runs it)`);
    const text = readFileSync(path, "utf8");
    const saved = JSON.parse(text) as Record<string, unknown>;
    expect(text).toBe(`${JSON.stringify(saved, null, 2)}\n`);
    expect(Object.keys(saved)).toEqual([
      "version",
      "file",
      "code",
      "severity",
      "message",
      "flow",
      "step",
      "line",
      "column",
      "seed",
      "input",
      "calls",
    ]);
    expect(saved).toMatchObject({
      version: 1,
      file: DEFECT,
      code: "FUZZ-ENSURE-RAISES",
      flow: "main",
      step: "describe",
      line: DEFECT_LINE,
      seed: 42,
    });
    const calls = saved.calls as { tool: string; arguments: Record<string, unknown> }[];
    expect(calls[0]?.tool).toBe("stratum_plan");
    expect(calls[0]?.arguments.spec).toBe(readFileSync(DEFECT_ABSOLUTE, "utf8"));
    expect(calls[1]?.arguments.flow_id).toBe("<flow-1>");
  });

  it("shows a progress line on a terminal's stderr, cleared at the end; nothing otherwise", async () => {
    const plain = await run(["fuzz", DEFECT, ...FAST]);
    expect(plain.err).toBe("");
    const tty = await run(["fuzz", DEFECT, ...FAST], testHost({ stderrIsTTY: true }));
    expect(tty.out).toBe(plain.out);
    // Every write starts with \r and ends by erasing the rest of the line; the last one clears it.
    const ERASE = "\x1b[K";
    const frames = tty.err.split("\r").slice(1);
    expect(frames.every((f) => f.endsWith(ERASE))).toBe(true);
    const lines = frames.map((f) => f.slice(0, -ERASE.length));
    expect(lines[0]).toBe("fuzzing ensure-raises-1.stratum.yaml: 0 runs (-/s), 0 paths, 0 finding(s)");
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^fuzzing ensure-raises-1\.stratum\.yaml: 25 runs \(\d+\/s\), \d+ paths, \d+ finding\(s\)$/,
      ),
    );
    expect(lines.at(-1)).toBe("");
    expect(tty.err.endsWith("\r\x1b[K")).toBe(true);
  });
});

describe("the progress line", () => {
  it("shows no rate before the first run, even when the clock has ticked since the start", () => {
    const written: string[] = [];
    let ms = 1_000;
    const line = new ProgressLine(
      (text) => written.push(text),
      () => ms++, // start() reads 1000, each update the next millisecond
    );
    line.start("a.stratum.yaml");
    line.update({ runs: 0, paths: 0, findings: 0 });
    line.update({ runs: 10, paths: 2, findings: 1 });
    expect(written).toEqual([
      "\rfuzzing a.stratum.yaml: 0 runs (-/s), 0 paths, 0 finding(s)\x1b[K",
      "\rfuzzing a.stratum.yaml: 0 runs (-/s), 0 paths, 0 finding(s)\x1b[K",
      "\rfuzzing a.stratum.yaml: 10 runs (3333/s), 2 paths, 1 finding(s)\x1b[K",
    ]);
  });
});
