// Shared helpers of the store tests in test/hostile (lock-takeover, temp-cleanup, store-errors):
// a real child process that holds a flow's lock (and leaves a temporary file) the way a writer
// inside a commit does, and flows written by the real engine.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { FileFlowStore } from "../../host/file-store/file-store";
import { nodeFileSystem } from "../../host/node-fs";
import { nodeWorkspace } from "../../host/node-workspace";
import type { StratumApi } from "../../interpreter/api";
import { createApi } from "../../interpreter/engine/create-api";
import { parseJson } from "../../stdlib/values/json";
import type { PyValue } from "../../stdlib/values/value";

export const SPEC = `version: "0.1"
contracts:
  Out:
    v: {type: string}
functions:
  work:
    mode: infer
    intent: "do it"
    input: {}
    output: Out
flows:
  main:
    input: {}
    output: Out
    steps:
      - id: a
        function: work
        inputs: {}
      - id: b
        function: work
        inputs: {}
`;

/**
 * A child process that takes `<flowsDir>/<id>.json.lock` exactly as lock.ts writes it (its pid,
 * a tag, its /proc start time, the host name), writes a temporary file `<id>.json.tmp-<pid>-x`,
 * prints "locked" and waits to be killed.
 */
export function spawnLockHolder(
  flowsDir: string,
  flowId: string,
): { child: ChildProcess; locked: Promise<void> } {
  const script = `
    const fs = require("fs"), os = require("os"), path = require("path");
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    const base = path.join(process.argv[1], process.argv[2] + ".json");
    fs.writeFileSync(base + ".lock", process.pid + " deadbeef " + start + " " + os.hostname() + "\\n", { flag: "wx" });
    fs.writeFileSync(base + ".tmp-" + process.pid + "-x", "half a flow");
    process.stdout.write("locked\\n");
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["-e", script, flowsDir, flowId], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => {
      if (d.toString().includes("locked")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`lock holder exited (${code})`)));
  });
  return { child, locked };
}

/** Kills with SIGKILL and waits until the child is reaped. */
export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

export function engine(store: FileFlowStore, cwd: string): StratumApi {
  return createApi({
    store,
    clock: { wallMs: () => Date.now(), monoMs: () => performance.now() },
    ids: { newFlowId: () => randomUUID() },
    cwd,
    files: (root) => ({ root, fs: nodeFileSystem }),
    workspace: nodeWorkspace,
    logError: (message) => {
      throw new Error(`unexpected engine failure: ${message}`);
    },
    verifyEdits: true,
  });
}

/** Plans a flow of SPEC; returns its id. */
export async function planFlow(api: StratumApi): Promise<string> {
  const response = await api.plan({ spec: SPEC, flow: "main" });
  if (response.status !== "execute_step") throw new Error(`plan failed: ${JSON.stringify(response)}`);
  return String(response.flow_id);
}

/** Times an async call in ms. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}

/** A step result `{"v": text}` as the MCP server decodes it (kind-preserving). */
export function result(text: string): PyValue {
  return parseJson(JSON.stringify({ v: text }));
}
