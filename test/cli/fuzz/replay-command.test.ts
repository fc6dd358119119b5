// `stratumc replay` in process: a counterexample saved by `fuzz --save` reproduces its finding
// (exit 0, pretty and json); one whose finding does not show exits 1; a file that cannot be read
// or is not a saved counterexample exits 2 with one line; a server that sends no typed events
// exits 4 (cannot judge).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFECT, DEFECT_LINE, run } from "./harness";

let dir = "";
let saved = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "stratumc-replay-"));
  const r = await run(["fuzz", DEFECT, "--runs", "30", "--save", dir]);
  expect(r.code).toBe(1);
  saved = join(dir, `ensure-raises-1-fuzz-ensure-raises-${DEFECT_LINE}.json`);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function variant(name: string, change: (saved: Record<string, unknown>) => unknown): string {
  const path = join(dir, name);
  const value = change(JSON.parse(readFileSync(saved, "utf8")) as Record<string, unknown>);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
}

describe("stratumc replay", () => {
  it("reproduces a saved counterexample in process (exit 0)", async () => {
    const r = await run(["replay", saved]);
    expect([r.code, r.err]).toEqual([0, ""]);
    expect(r.out).toMatch(/^→ stratum_plan \{"spec": "<the spec, 41 lines>", "flow": "main", "inputs": \{/);
    expect(r.out).toContain(
      '\n→ stratum_step_done {"flow_id": "<flow-1>", "step_id": "describe", "result": {',
    );
    expect(r.out).toContain('\n  {\n    "status": "ensure_failed",\n');
    expect(r.out).toMatch(
      /\nreproduced FUZZ-ENSURE-RAISES: ensure 'len\(result\.risk_notes\) <= 500' raised .*\n$/,
    );
  });

  it("prints {reproduced, code, steps} with --format json", async () => {
    const r = await run(["replay", saved, "--format", "json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as { steps: { call: { tool: string }; response: object }[] };
    expect(Object.keys(out)).toEqual(["reproduced", "judged", "code", "steps"]);
    expect(out).toMatchObject({ reproduced: true, code: "FUZZ-ENSURE-RAISES" });
    const calls = (JSON.parse(readFileSync(saved, "utf8")) as { calls: unknown[] }).calls;
    expect(out.steps.map((s) => s.call)).toEqual(calls);
    expect(Object.keys(out.steps[0]!)).toEqual(["call", "response"]);
  });

  it("exits 1 when the finding does not show again", async () => {
    const other = variant("other-code.json", (s) => ({ ...s, code: "FUZZ-DEAD-STEP" }));
    const r = await run(["replay", other]);
    expect(r.code).toBe(1);
    expect(r.out.endsWith("\nnot reproduced\n")).toBe(true);
    const json = await run(["replay", other, "--format", "json"]);
    expect([json.code, (JSON.parse(json.out) as { reproduced: boolean }).reproduced]).toEqual([1, false]);
  });

  it("exits 2 with one line for a file that is not a saved counterexample", async () => {
    const cases: [string, string][] = [
      [variant("not-json.json", () => "{oops"), "not JSON ("],
      [variant("array.json", () => []), "not a JSON object"],
      [variant("version.json", (s) => ({ ...s, version: 2 })), '"version" must be 1'],
      [variant("no-calls.json", (s) => ({ ...s, calls: [] })), '"calls" must be a non-empty list'],
      [
        variant("bad-tool.json", (s) => ({ ...s, calls: [{ tool: "rm", arguments: {} }] })),
        '"calls"[0] must be {"tool": <a stratum_* flow tool>, "arguments": {…}}',
      ],
      [
        variant("no-plan.json", (s) => ({ ...s, calls: (s.calls as unknown[]).slice(1) })),
        "the first call must be stratum_plan with the spec text",
      ],
    ];
    for (const [path, reason] of cases) {
      const r = await run(["replay", path]);
      expect(r.code).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toContain(`stratumc: ${path}: not a saved counterexample: ${reason}`);
      expect(r.err.split("\n")).toHaveLength(2);
    }
    const missing = await run(["replay", join(dir, "missing.json")]);
    expect(missing).toEqual({
      code: 2,
      out: "",
      err: `stratumc: cannot read ${join(dir, "missing.json")}: file not found\n`,
    });
  });

  it("exits 4 and says it cannot judge when the server sends no typed events", async () => {
    const relay = join(import.meta.dirname, "fixtures", "no-events-server.cjs");
    const r = await run(["replay", saved, "--server", `${process.execPath} ${relay}`]);
    expect(r.code).toBe(4);
    expect(r.out).toContain('\n  {\n    "status": "ensure_failed",\n');
    expect(r.out).toMatch(/\ncannot judge: the server sends no typed events .*\n$/);
    const json = await run(["replay", saved, "--server", `${process.execPath} ${relay}`, "--format", "json"]);
    expect(JSON.parse(json.out)).toMatchObject({ reproduced: false, judged: false });
  });

  it("exits 2 when the --server command cannot be started", async () => {
    const r = await run(["replay", saved, "--server", "stratumc-no-such-program --stdio"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^stratumc: cannot start the MCP server 'stratumc-no-such-program --stdio': .*ENOENT/,
    );
  });
});
