// The MCP server's launchers set glibc's malloc arena limit (the server's memory stays flat
// over weeks only with it), and bin/stratum-mcp.cjs execs node so a client's signals reach the
// server. The real launchers run beside a stand-in bundle that reports what it was started with.
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../..");
const HAS_STRACE = spawnSync("strace", ["-qq", "-e", "trace=none", "true"]).status === 0;

const STAND_IN = `console.log(JSON.stringify({
  arenas: process.env.MALLOC_ARENA_MAX ?? null,
  prog: process.env.STRATUMC_PROG ?? null,
  args: process.argv.slice(2),
  pid: process.pid,
}));
process.exitCode = process.argv[2] === "exit" ? Number(process.argv[3]) : 0;`;

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "stratumc-server-launcher-"));
  mkdirSync(join(root, "bin"));
  mkdirSync(join(root, "dist"));
  copyFileSync(join(REPO, "bin/stratum-mcp.cjs"), join(root, "bin/stratum-mcp.cjs"));
  copyFileSync(join(REPO, "bin/stratumc.cjs"), join(root, "bin/stratumc.cjs"));
  writeFileSync(join(root, "dist/stratumc.cjs"), STAND_IN);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function env(changes: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`,
  };
  delete e.NODE_OPTIONS;
  delete e.MALLOC_ARENA_MAX;
  delete e.STRATUMC_PROG;
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete e[k];
    else e[k] = v;
  }
  return e;
}

interface Started {
  readonly status: number | null;
  readonly pid: number;
  readonly report: { arenas: string | null; prog: string | null; args: string[]; pid: number };
}

function run(command: string, args: readonly string[], e: NodeJS.ProcessEnv = env()): Started {
  const r = spawnSync(command, args, { env: e, encoding: "utf8" });
  if (r.stderr !== "") throw new Error(r.stderr);
  return { status: r.status, pid: r.pid ?? -1, report: JSON.parse(r.stdout) };
}

describe("bin/stratum-mcp.cjs run as a program", () => {
  const bin = () => join(root, "bin/stratum-mcp.cjs");

  it("starts the server with two malloc arenas, as stratum-mcp, with the arguments unchanged", () => {
    const args = ["a b", "", "*", "$HOME", "--version"];
    const r = run(bin(), args);
    expect(r.report).toMatchObject({ arenas: "2", prog: "stratum-mcp", args });
  });

  it("execs node: the process the client started is the server, and its exit status is the server's", () => {
    const r = run(bin(), ["exit", "3"]);
    expect(r.status).toBe(3);
    expect(r.report.pid).toBe(r.pid);
  });

  // The shell part runs builtins only: the one program started after the launcher is node.
  it.skipIf(!HAS_STRACE)("starts no program but node", () => {
    const trace = join(root, "execve.trace");
    const r = spawnSync("strace", ["-f", "-qq", "-e", "trace=execve", "-o", trace, bin(), "x"], {
      env: env(),
      encoding: "utf8",
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ args: ["x"] });
    const programs = readFileSync(trace, "utf8")
      .split("\n")
      .flatMap((line) => /execve\("([^"]*)"/.exec(line)?.[1] ?? []);
    expect(programs).toEqual([bin(), process.execPath]);
  });

  it("keeps an arena limit the caller set", () => {
    expect(run(bin(), [], env({ MALLOC_ARENA_MAX: "8" })).report.arenas).toBe("8");
  });

  it("is found through a symbolic link on PATH (node_modules/.bin)", () => {
    const links = join(root, "links");
    mkdirSync(links, { recursive: true });
    symlinkSync("../bin/stratum-mcp.cjs", join(links, "stratum-mcp"));
    const r = run("stratum-mcp", ["x"], env({ PATH: `${links}${delimiter}${env().PATH}` }));
    expect(r.report).toMatchObject({ arenas: "2", prog: "stratum-mcp", args: ["x"] });
  });
});

describe("bin/stratum-mcp.cjs run by node", () => {
  it("ignores the shell part: nothing but the program name is set", () => {
    const r = run(process.execPath, [join(root, "bin/stratum-mcp.cjs"), "y"]);
    expect(r.report).toMatchObject({ arenas: null, prog: "stratum-mcp", args: ["y"] });
  });
});

describe("bin/stratumc.cjs", () => {
  const bin = () => join(root, "bin/stratumc.cjs");

  it("sets the arena limit for `serve` only", () => {
    expect(run(bin(), ["serve"]).report.arenas).toBe("2");
    expect(run(bin(), ["check", "a.stratum.yaml"]).report.arenas).toBeNull();
    expect(run(bin(), ["serve"], env({ MALLOC_ARENA_MAX: "4" })).report.arenas).toBe("4");
  });
});
