// bin/stratumc.cjs as a program: when it starts node from the V8 startup snapshot and when it falls
// back to the plain bundle. The layout is the real launcher beside a stand-in bundle and a tiny
// snapshot that both print which one ran, so every branch is observable.
import { spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../..");
const HAS_STRACE = spawnSync("strace", ["-qq", "-e", "trace=none", "true"]).status === 0;
const LAUNCHER = join(REPO, "bin/stratumc.cjs");

// Both stand-ins report their argv, echo stdin for `stdin`, NODE_EXTRA_CA_CERTS for a command line
// that ends with `extra-ca`, GLIBC_TUNABLES for one that ends with `tunables`, node's `--v8-*` options for one that ends
// with `exec-argv`, and exit with N for `exit N`; `wait`
// prints "ready" and runs until a signal ends it, `wait N` until SIGHUP, SIGINT or SIGTERM, on
// which it prints the signal and exits with N.
const behaviour = (label: string, argvStart: number) => `
const args = process.argv.slice(${argvStart});
if (args[0] === "wait") {
  if (args[1] !== undefined) {
    for (const s of ["SIGHUP", "SIGINT", "SIGTERM"]) process.on(s, () => { console.log("${label} got " + s); process.exit(Number(args[1])); });
  }
  setInterval(() => {}, 1000);
  console.log("${label} ready");
} else if (args[0] === "stdin") {
  let data = "";
  process.stdin.setEncoding("utf8").on("data", (c) => (data += c)).on("end", () => console.log("${label} stdin " + data));
} else if (args[args.length - 1] === "extra-ca") {
  console.log("${label} NODE_EXTRA_CA_CERTS=" + JSON.stringify(process.env.NODE_EXTRA_CA_CERTS ?? null));
} else if (args[args.length - 1] === "tunables") {
  console.log("${label} GLIBC_TUNABLES=" + JSON.stringify(process.env.GLIBC_TUNABLES ?? null));
} else if (args[args.length - 1] === "exec-argv") {
  console.log("${label} " + JSON.stringify(process.execArgv.filter((a) => a.startsWith("--v8-"))));
} else {
  console.log("${label} " + JSON.stringify(args));
  if (args[0] === "exit") process.exitCode = Number(args[1]);
}`;
const PLAIN_BUNDLE = behaviour("plain", 2);
const snapshotEntry = (label: string) =>
  `require("node:v8").startupSnapshot.setDeserializeMainFunction(() => {${behaviour(label, 1)}});`;

let work: string;
let goodBlob: string;
let refusedBlob: string;
/** Stand-ins for dist/stratumc-check.blob and dist/stratumc-explore.blob that say which ran. */
let checkBlob: string;
let exploreBlob: string;

function buildBlob(out: string, v8Flags: readonly string[], label = "snapshot"): void {
  const entry = join(work, `entry-${label}.cjs`);
  writeFileSync(entry, snapshotEntry(label));
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const r = spawnSync(process.execPath, [...v8Flags, "--snapshot-blob", out, "--build-snapshot", entry], {
    env,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`snapshot build failed: ${r.stderr}`);
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "stratumc-launcher-"));
  goodBlob = join(work, "good.blob");
  refusedBlob = join(work, "refused.blob");
  buildBlob(goodBlob, []);
  // Built with a V8 flag the launcher does not pass: node refuses it with exit status 14.
  buildBlob(refusedBlob, ["--stack-size=900"]);
  checkBlob = join(work, "check.blob");
  exploreBlob = join(work, "explore.blob");
  buildBlob(checkBlob, [], "check");
  buildBlob(exploreBlob, [], "explore");
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

interface Layout {
  readonly root: string;
  readonly bin: string;
  readonly blob: string;
  readonly nodepath: string;
}

let layouts = 0;
function layout(blob: string | null = goodBlob, nodePath: string | null = process.execPath): Layout {
  const root = join(work, `pkg${layouts++}`);
  mkdirSync(join(root, "bin"), { recursive: true });
  mkdirSync(join(root, "dist"));
  const bin = join(root, "bin/stratumc.cjs");
  copyFileSync(LAUNCHER, bin);
  writeFileSync(join(root, "dist/stratumc.cjs"), PLAIN_BUNDLE);
  const l = {
    root,
    bin,
    blob: join(root, "dist/stratumc.blob"),
    nodepath: join(root, "dist/stratumc.blob.nodepath"),
  };
  if (blob !== null) copyFileSync(blob, l.blob);
  if (nodePath !== null) writeFileSync(l.nodepath, `${nodePath}\n`);
  return l;
}

/** The environment of a plain shell: the running node first on PATH, no NODE_OPTIONS. */
function env(changes: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`,
  };
  delete e.NODE_OPTIONS;
  delete e.STRATUMC_NO_SNAPSHOT;
  delete e.GLIBC_TUNABLES;
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete e[k];
    else e[k] = v;
  }
  return e;
}

function run(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {},
) {
  const r = spawnSync(command, args, {
    env: options.env ?? env(),
    input: options.input ?? "",
    encoding: "utf8",
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("bin/stratumc.cjs run as a program", () => {
  it("starts from the snapshot when the blob was built by the node on PATH", () => {
    const l = layout();
    expect(run(l.bin, ["check", "a.stratum.yaml"])).toEqual({
      status: 0,
      stdout: 'snapshot ["check","a.stratum.yaml"]\n',
      stderr: "",
    });
  });

  it("passes arguments through unchanged (spaces, empty, globs, dollars, dashes)", () => {
    const l = layout();
    const args = ["a b", "", "*", "$HOME", "--version", "-", 'it\'s "quoted"'];
    expect(run(l.bin, args).stdout).toBe(`snapshot ${JSON.stringify(args)}\n`);
    expect(run(l.bin, args, { env: env({ STRATUMC_NO_SNAPSHOT: "1" }) }).stdout).toBe(
      `plain ${JSON.stringify(args)}\n`,
    );
  });

  it("passes the exit status and stdin through", () => {
    const l = layout();
    expect(run(l.bin, ["exit", "3"]).status).toBe(3);
    expect(run(l.bin, ["stdin"], { input: "spec text" }).stdout).toBe("snapshot stdin spec text\n");
  });

  // Every process a start costs is paid on each check a pre-commit hook runs: the shell part runs
  // builtins only, and the one program it starts is node. Watched with strace where it is present.
  it.skipIf(!HAS_STRACE)("starts no program but node on the snapshot path", () => {
    const l = layout();
    const trace = join(work, "execve.trace");
    const r = run("strace", ["-f", "-qq", "-e", "trace=execve", "-o", trace, l.bin, "check", "a"]);
    expect(r.stdout).toBe('snapshot ["check","a"]\n');
    const programs = readFileSync(trace, "utf8")
      .split("\n")
      .flatMap((line) => /execve\("([^"]*)"/.exec(line)?.[1] ?? []);
    expect(programs).toEqual([l.bin, process.execPath]);
  });

  it("resolves a relative symlink to itself (node_modules/.bin)", () => {
    const l = layout();
    mkdirSync(join(l.root, "node_modules/.bin"), { recursive: true });
    const link = join(l.root, "node_modules/.bin/stratumc");
    symlinkSync("../../bin/stratumc.cjs", link);
    expect(run(link, ["x"]).stdout).toBe('snapshot ["x"]\n');
    expect(
      run("stratumc", ["y"], { env: env({ PATH: `${dirname(link)}${delimiter}${env().PATH}` }) }).stdout,
    ).toBe('snapshot ["y"]\n');
  });

  it("is started by name from its own directory", () => {
    const l = layout();
    expect(run("sh", ["stratumc.cjs", "z"], { cwd: join(l.root, "bin") }).stdout).toBe('snapshot ["z"]\n');
  });

  it("runs the plain bundle when STRATUMC_NO_SNAPSHOT or NODE_OPTIONS is set", () => {
    const l = layout();
    expect(run(l.bin, ["a"], { env: env({ STRATUMC_NO_SNAPSHOT: "1" }) }).stdout).toBe('plain ["a"]\n');
    expect(run(l.bin, ["b"], { env: env({ NODE_OPTIONS: "--no-warnings" }) }).stdout).toBe('plain ["b"]\n');
  });

  it("runs the plain bundle without a blob or without the record of the node that built it", () => {
    expect(run(layout(null).bin, ["a"]).stdout).toBe('plain ["a"]\n');
    expect(run(layout(goodBlob, null).bin, ["b"]).stdout).toBe('plain ["b"]\n');
  });

  it("runs the plain bundle when another node built the blob", () => {
    const other = join(work, "other-node");
    writeFileSync(other, "#!/bin/sh\nexit 99\n", { mode: 0o755 });
    const l = layout(goodBlob, other);
    expect(run(l.bin, ["a"]).stdout).toBe('plain ["a"]\n');
  });

  it("runs the plain bundle when the node binary is newer than the blob (upgraded in place)", () => {
    const l = layout();
    utimesSync(l.blob, new Date(0), new Date(0));
    expect(run(l.bin, ["a"]).stdout).toBe('plain ["a"]\n');
  });

  // Node parses every certificate of NODE_EXTRA_CA_CERTS as it starts, before any of our code; a
  // file it cannot read costs a warning on stderr on each start instead.
  it("starts the check-only snapshot without NODE_EXTRA_CA_CERTS, every other node with it", () => {
    const l = layout();
    copyFileSync(goodBlob, join(l.root, "dist/stratumc-check.blob"));
    const e = env({ NODE_EXTRA_CA_CERTS: join(work, "no-such-bundle.pem") });
    for (const command of ["check", "validate"]) {
      expect(run(l.bin, [command, "a.stratum.yaml", "extra-ca"], { env: e })).toEqual({
        status: 0,
        stdout: "snapshot NODE_EXTRA_CA_CERTS=null\n",
        stderr: "",
      });
    }
    const kept = `NODE_EXTRA_CA_CERTS=${JSON.stringify(e.NODE_EXTRA_CA_CERTS)}\n`;
    for (const args of [
      ["check", "--deep", "extra-ca"],
      ["eval", "extra-ca"],
    ]) {
      const r = run(l.bin, args, { env: e });
      expect(r.stdout).toBe(`snapshot ${kept}`);
      expect(r.stderr).toContain("Ignoring extra certs");
    }
    // Without the check blob, `check` runs the whole CLI's snapshot, which keeps it too.
    expect(run(layout().bin, ["check", "extra-ca"], { env: e }).stdout).toBe(`snapshot ${kept}`);
  });

  // Node copies the blob into fresh memory twice as it starts; huge pages take most of the page
  // faults out of that. Only the check-only and explore programs, which start no other process.
  it("asks glibc for huge pages in the check-only and explore programs only, and keeps the caller's tunables", () => {
    const l = layout();
    copyFileSync(checkBlob, join(l.root, "dist/stratumc-check.blob"));
    copyFileSync(exploreBlob, join(l.root, "dist/stratumc-explore.blob"));
    const tunables = (args: readonly string[], set?: string) =>
      run(l.bin, [...args, "tunables"], { env: env(set === undefined ? {} : { GLIBC_TUNABLES: set }) })
        .stdout;
    expect(tunables(["check", "a"])).toBe('check GLIBC_TUNABLES="glibc.malloc.hugetlb=1"\n');
    expect(tunables(["validate", "a"])).toBe('check GLIBC_TUNABLES="glibc.malloc.hugetlb=1"\n');
    expect(tunables(["check", "--deep", "a"])).toBe('explore GLIBC_TUNABLES="glibc.malloc.hugetlb=1"\n');
    expect(tunables(["fuzz", "a"])).toBe('explore GLIBC_TUNABLES="glibc.malloc.hugetlb=1"\n');
    expect(tunables(["fuzz", "a"], "glibc.malloc.arena_max=2")).toBe(
      'explore GLIBC_TUNABLES="glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1"\n',
    );
    expect(tunables(["check", "a"], "glibc.malloc.hugetlb=0")).toBe(
      'check GLIBC_TUNABLES="glibc.malloc.hugetlb=0"\n',
    );
    // The servers and every command that may start an agent's process get the caller's environment.
    expect(tunables(["eval", "1"])).toBe("snapshot GLIBC_TUNABLES=null\n");
    expect(tunables(["serve"], "glibc.malloc.arena_max=2")).toBe(
      'snapshot GLIBC_TUNABLES="glibc.malloc.arena_max=2"\n',
    );
    // The plain bundle (no snapshot usable) is node as the caller started it.
    expect(run(layout().bin, ["check", "tunables"], { env: env({ STRATUMC_NO_SNAPSHOT: "1" }) }).stdout).toBe(
      "plain GLIBC_TUNABLES=null\n",
    );
  });

  // Node's default pool of four V8 worker threads takes the cores from the main thread on a small
  // machine; node's own estimate (0: the cores less one) for the two short-lived programs only.
  it("sizes V8's thread pool to the machine in the check-only and explore programs only", () => {
    const l = layout();
    copyFileSync(checkBlob, join(l.root, "dist/stratumc-check.blob"));
    copyFileSync(exploreBlob, join(l.root, "dist/stratumc-explore.blob"));
    const v8Options = (args: readonly string[]) => run(l.bin, [...args, "exec-argv"], { env: env() }).stdout;
    expect(v8Options(["check", "a"])).toBe('check ["--v8-pool-size=0"]\n');
    expect(v8Options(["check", "--deep", "a"])).toBe('explore ["--v8-pool-size=0"]\n');
    expect(v8Options(["fuzz", "a"])).toBe('explore ["--v8-pool-size=0"]\n');
    for (const args of [["eval", "1"], ["serve"], ["lsp"]]) expect(v8Options(args)).toBe("snapshot []\n");
  });

  it("starts check and validate from the check blob, check --deep and fuzz from the explore blob, the rest from the whole CLI's", () => {
    const l = layout();
    copyFileSync(checkBlob, join(l.root, "dist/stratumc-check.blob"));
    copyFileSync(exploreBlob, join(l.root, "dist/stratumc-explore.blob"));
    const ran = (args: readonly string[], e: NodeJS.ProcessEnv = env()) =>
      run(l.bin, args, { env: e }).stdout.split(" ")[0];
    expect(ran(["check", "a.stratum.yaml"])).toBe("check");
    expect(ran(["validate", "a.stratum.yaml"])).toBe("check");
    expect(ran(["check", "a.stratum.yaml", "--deep"])).toBe("explore");
    expect(ran(["check", "--deep", "--jobs", "2", "a.stratum.yaml"])).toBe("explore");
    expect(ran(["fuzz", "a.stratum.yaml"])).toBe("explore");
    for (const args of [["eval", "1"], ["gate", "list"], ["--version"], []])
      expect(ran(args)).toBe("snapshot");
    // stratum-mcp has no fuzz command and no --deep: the whole CLI answers as the reference's.
    expect(ran(["fuzz", "a.stratum.yaml"], env({ STRATUMC_PROG: "stratum-mcp" }))).toBe("snapshot");
    // The explore program opens no connection: it starts without NODE_EXTRA_CA_CERTS, as `check`.
    const e = env({ NODE_EXTRA_CA_CERTS: join(work, "no-such-bundle.pem") });
    for (const args of [
      ["fuzz", "a.stratum.yaml", "extra-ca"],
      ["check", "--deep", "extra-ca"],
    ]) {
      expect(run(l.bin, args, { env: e })).toEqual({
        status: 0,
        stdout: "explore NODE_EXTRA_CA_CERTS=null\n",
        stderr: "",
      });
    }
  });

  it("starts check --deep and fuzz from the whole CLI's blob when the build made no explore blob", () => {
    const l = layout();
    copyFileSync(checkBlob, join(l.root, "dist/stratumc-check.blob"));
    expect(run(l.bin, ["check", "--deep", "a"]).stdout).toBe('snapshot ["check","--deep","a"]\n');
    expect(run(l.bin, ["fuzz", "a"]).stdout).toBe('snapshot ["fuzz","a"]\n');
    expect(run(l.bin, ["check", "a"]).stdout).toBe('check ["check","a"]\n');
  });

  it("falls back and removes the blob when node refuses it (exit status 14)", () => {
    const l = layout(refusedBlob);
    const r = run(l.bin, ["a", "b c"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('plain ["a","b c"]\n');
    expect(r.stderr).toContain("Failed to load the startup snapshot");
    expect(existsSync(l.blob)).toBe(false);
    // Later runs take the plain path silently.
    expect(run(l.bin, ["a"])).toEqual({ status: 0, stdout: 'plain ["a"]\n', stderr: "" });
  });
});

/** The launchers `started` ran and the nodes below them, killed after each test whatever it left. */
const running: number[] = [];
afterEach(() => {
  for (const pid of running.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

/** The pids of the children of `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** The launcher started with `wait …`; resolves once the stand-in says it is ready. */
async function started(bin: string, args: readonly string[], e: NodeJS.ProcessEnv = env()) {
  const child = spawn(bin, args, { env: e, stdio: ["pipe", "pipe", "pipe"] });
  running.push(child.pid ?? -1);
  let out = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, out })),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      if (!out.includes("ready\n")) return;
      running.push(...childrenOf(child.pid ?? -1));
      resolve();
    });
    void exited.then((x) => reject(new Error(`exited before it was ready: ${JSON.stringify(x)}`)));
  });
  return { pid: child.pid ?? -1, exited };
}

describe("bin/stratumc.cjs passes signals on and ends as node ended", () => {
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    it(`${signal} from the snapshot path: node's handler runs, and its exit status is the launcher's`, async () => {
      const l = layout();
      const run = await started(l.bin, ["wait", "7"]);
      process.kill(run.pid, signal);
      expect(await run.exited).toEqual({
        code: 7,
        signal: null,
        out: `snapshot ready\nsnapshot got ${signal}\n`,
      });
    });

    it(`${signal} without a handler: the launcher ends by ${signal} on either path, as node did`, async () => {
      for (const e of [env(), env({ STRATUMC_NO_SNAPSHOT: "1" })]) {
        const run = await started(layout().bin, ["wait"], e);
        process.kill(run.pid, signal);
        expect((await run.exited).signal).toBe(signal);
      }
    });
  }

  it("leaves no node behind when the launcher is killed", async () => {
    const l = layout();
    const run = await started(l.bin, ["wait"]);
    const [node = -1] = childrenOf(run.pid);
    expect(readFileSync(`/proc/${node}/cmdline`, "utf8")).toContain("--snapshot-blob");
    process.kill(run.pid, "SIGTERM");
    await run.exited;
    expect(() => process.kill(node, 0)).toThrow(/ESRCH/);
  });

  it("starts from the snapshot when its stdin is closed", () => {
    const l = layout();
    const r = spawnSync("sh", ["-c", '"$0" a <&-', l.bin], { env: env(), encoding: "utf8" });
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 0,
      stdout: 'snapshot ["a"]\n',
      stderr: "",
    });
  });
});

describe("bin/stratumc.cjs run by node", () => {
  it("ignores the shell part and runs the plain bundle", () => {
    const l = layout();
    expect(run(process.execPath, [l.bin, "check", "x y"])).toEqual({
      status: 0,
      stdout: 'plain ["check","x y"]\n',
      stderr: "",
    });
  });
});
