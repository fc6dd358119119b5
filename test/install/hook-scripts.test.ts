// The bundled hook scripts (docs/reference/runtime.md §22.1 table) run by bash with sample event JSON on standard
// input: what they print, what they append to <cwd>/.claude/memory/MEMORY.md, and that they never
// fail (bad JSON, no memory file, no node on PATH).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { HOOK_SCRIPTS } from "../../install/generated/hook-scripts";

let dir: string;
let memory: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "stratum-hooks-"));
  memory = join(dir, ".claude", "memory", "MEMORY.md");
  for (const { name, text } of HOOK_SCRIPTS) writeFileSync(join(dir, name), text);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const PATH_WITH_NODE = `${dirname(process.execPath)}:/usr/bin:/bin`;
const TIME = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z";

function run(script: string, input: string, options: { cwd?: string; path?: string } = {}) {
  const r = spawnSync("/bin/bash", [join(dir, script)], {
    input,
    cwd: options.cwd ?? dir,
    encoding: "utf8",
    env: { PATH: options.path ?? PATH_WITH_NODE },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function withMemory(text = "# Memory\n"): void {
  mkdirSync(dirname(memory), { recursive: true });
  writeFileSync(memory, text);
}

const event = (fields: Record<string, unknown>) => JSON.stringify({ cwd: dir, ...fields });

describe("stratum-session-start.sh", () => {
  test("prints the memory file", () => {
    withMemory("# Memory\n\n- build with make\n");
    expect(run("stratum-session-start.sh", event({}))).toEqual({
      status: 0,
      stdout: "# Memory\n\n- build with make\n",
      stderr: "",
    });
  });

  test("cwd defaults to the current directory", () => {
    withMemory("here\n");
    expect(run("stratum-session-start.sh", "{}").stdout).toBe("here\n");
  });

  test("prints nothing without a memory file", () => {
    expect(run("stratum-session-start.sh", event({}))).toEqual({ status: 0, stdout: "", stderr: "" });
  });
});

describe("stratum-session-stop.sh", () => {
  test("appends a session note with the first 400 characters", () => {
    withMemory();
    const message = `${"é".repeat(399)}😀and more`;
    expect(run("stratum-session-stop.sh", event({ last_assistant_message: message }))).toEqual({
      status: 0,
      stdout: "",
      stderr: "",
    });
    const text = readFileSync(memory, "utf8");
    expect(text).toMatch(
      new RegExp(`^# Memory\\n\\n## Session note ${TIME}\\n\\n${"é".repeat(399)}😀\\n$`, "u"),
    );
  });

  test("an empty or missing message appends nothing", () => {
    withMemory();
    run("stratum-session-stop.sh", event({ last_assistant_message: "" }));
    run("stratum-session-stop.sh", event({}));
    expect(readFileSync(memory, "utf8")).toBe("# Memory\n");
  });

  test("never creates the memory file", () => {
    expect(run("stratum-session-stop.sh", event({ last_assistant_message: "hi" })).status).toBe(0);
    expect(() => readFileSync(memory)).toThrow();
  });
});

describe("stratum-post-tool-failure.sh", () => {
  test("appends a tool-failure note with the first 300 characters of the error", () => {
    withMemory();
    const error = `${"x".repeat(300)}TRUNCATED`;
    run("stratum-post-tool-failure.sh", event({ tool_name: "Bash", error }));
    expect(readFileSync(memory, "utf8")).toMatch(
      new RegExp(`^# Memory\\n\\n## Tool failure ${TIME}\\n\\nTool: Bash\\nError: ${"x".repeat(300)}\\n$`),
    );
  });

  test("the tool name defaults to unknown", () => {
    withMemory("");
    run("stratum-post-tool-failure.sh", event({ error: "boom" }));
    expect(readFileSync(memory, "utf8")).toMatch(
      new RegExp(`^\\n## Tool failure ${TIME}\\n\\nTool: unknown\\nError: boom\\n$`),
    );
  });

  test("interrupts and empty errors are ignored", () => {
    withMemory();
    run("stratum-post-tool-failure.sh", event({ tool_name: "Bash", error: "stopped", is_interrupt: true }));
    run("stratum-post-tool-failure.sh", event({ tool_name: "Bash", error: "" }));
    expect(readFileSync(memory, "utf8")).toBe("# Memory\n");
  });
});

describe("never fails", () => {
  for (const { name } of HOOK_SCRIPTS) {
    test(`${name}: bad JSON, a non-object event, no node`, () => {
      withMemory();
      for (const input of ["not json", "[1]", "null", ""])
        expect(run(name, input)).toEqual({
          status: 0,
          stdout: name.includes("start") ? "# Memory\n" : "",
          stderr: "",
        });
      expect(run(name, event({ last_assistant_message: "m", error: "e" }), { path: "/nonexistent" })).toEqual(
        {
          status: 0,
          stdout: "",
          stderr: "",
        },
      );
      expect(readFileSync(memory, "utf8")).toBe("# Memory\n");
    });
  }
});
