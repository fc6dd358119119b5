// `runCli` in process with an injected host (working directory, environment, terminal, stdin):
// the same behaviour as the binary, without spawning, so that the host interface stays honest.
import { describe, expect, it } from "vitest";
import type { CliHost } from "../../cli/command-context";
import { runCli } from "../../cli/program";
import { BROKEN, CLEAN } from "./spec-fixtures";

function host(stdin: string, overrides: Partial<CliHost> = {}): CliHost {
  return {
    cwd: "/nonexistent-stratumc-dir",
    env: {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
    readStdin: async () => new TextEncoder().encode(stdin),
    ...overrides,
  };
}

async function run(args: string[], h: CliHost) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    args,
    { out: (s) => void out.push(s), err: (s) => void err.push(s) },
    "stratumc",
    h,
  );
  return { code, out: out.join(""), err: err.join("") };
}

describe("runCli check with an injected host", () => {
  it("reads standard input from the host and colours only on a terminal", async () => {
    const plain = await run(["check", "-"], host(BROKEN));
    expect(plain.code).toBe(1);
    expect(plain.out).toContain("<stdin>:9:22: error:");
    expect(plain.out).not.toContain("\x1b[");
    const tty = await run(["check", "-"], host(BROKEN, { stdoutIsTTY: true }));
    expect(tty.out).toContain("\x1b[1;31merror\x1b[0m");
    const noColor = await run(["check", "-"], host(BROKEN, { stdoutIsTTY: true, env: { NO_COLOR: "1" } }));
    expect(noColor.out).not.toContain("\x1b[");
  });

  it("resolves paths against the host's working directory", async () => {
    const r = await run(["check", "missing.stratum.yaml"], host(CLEAN));
    expect(r).toEqual({
      code: 2,
      out: "missing.stratum.yaml:1:1: error: cannot read file: file not found [IO-READ]\n\n1 error(s), 0 warning(s) in 1 file(s)\n",
      err: "",
    });
  });

  it("validate and graph read standard input from the host too", async () => {
    const v = await run(["validate", "-"], host(CLEAN));
    expect([v.code, JSON.parse(v.out).valid]).toEqual([0, true]);
    const g = await run(["graph", "-", "--format", "dot", "--flow", "outer"], host(CLEAN));
    expect(g.code).toBe(0);
    expect(g.out).toContain("f0_s0 -> f0_s1;");
  });
});
