// The CLI's own JSON inputs get the tools' depth limit: `eval --batch` lines and
// `--bindings` / `--input` / `--steps` are refused past MAX_VALUE_DEPTH with the place in the text
// (a deep binding used to overflow the stack in repr: an InternalError line, or a crash), and a saved
// counterexample whose replayed arguments are too deep is refused by name before replay converts it.
import { describe, expect, it } from "vitest";
import { parseCounterexampleFile } from "../../cli/fuzz/counterexample-file";
import { stratumc } from "../cli/run-cli";
import { nestedText, resultText } from "./deep-support";

/** One `eval --batch` case whose line is `depth` levels deep (the case object is level 1). */
const caseLine = (depth: number) => `{"expr": "x", "bindings": {"x": ${nestedText(depth - 2, "array")}}}`;

describe("stratumc eval", () => {
  it("--batch: a line at the limit evaluates; deeper lines are InputErrors with their place", () => {
    const lines = [caseLine(512), caseLine(513), caseLine(20_000), `{"expr": "1 + 1"}`];
    const run = stratumc(["eval", "--batch", "-"], { input: `${lines.join("\n")}\n` });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const out = run.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(out).toHaveLength(4);
    expect(out[0]?.repr).toBe(`${"[".repeat(510)}${"]".repeat(510)}`);
    const refused =
      "InputError: invalid JSON: nested more than 512 levels deep: line 1 column 543 (char 542)";
    expect(out[1]).toEqual({ error: refused });
    expect(out[2]).toEqual({ error: refused });
    expect(out[3]).toEqual({ repr: "2" });
  });

  it("--bindings deeper than the limit is a usage error naming the option and the place", () => {
    const run = stratumc(["eval", "x", "--bindings", `{"x": ${nestedText(3_000, "object")}}`]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      "--bindings: invalid JSON: nested more than 512 levels deep: line 1 column 3073 (char 3072)",
    );
  });
});

describe("a saved counterexample", () => {
  const file = (result: string) =>
    `{"version": 1, "file": "a.stratum.yaml", "code": "FUZZ-X", "severity": "error", "message": "m", "flow": "main", "step": "s1", "line": 1, "column": 1, "seed": 1, "input": {}, "calls": [{"tool": "stratum_plan", "arguments": {"spec": "x", "flow": "main"}}, {"tool": "stratum_step_done", "arguments": {"flow_id": "<flow-1>", "step_id": "s1", "result": ${result}}}]}`;

  it("is read with results at the limit and refused past it, naming the call and argument", () => {
    expect(parseCounterexampleFile(file(resultText(512))).ok).toBe(true);
    expect(parseCounterexampleFile(file(resultText(5_000)))).toEqual({
      ok: false,
      reason: `"calls"[1].arguments.result: nested 5,000 levels deep; the limit is 512`,
    });
  });
});
