// The worker side of `stratumc ui`'s flow reading (ui/flow-reader.ts), with a stand-in worker
// script: answers come back to the request that asked, a store that cannot be reached stays a
// StoreUnavailableError (the server answers 503 for it), a worker that dies fails what it held and
// the next request starts a new one; a worker the command started early is the first one used. The real worker (dist/ui-reader.cjs) is driven by the tests
// of the built `stratumc ui` (test/hostile/ui-hostile.test.ts, test/ui/browser.test.ts).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StoreUnavailableError } from "../../interpreter/index";
import { workerReader } from "../../ui/flow-reader";
import { readerData, startReaderWorker } from "../../ui/reader-start";

const dir = mkdtempSync(join(tmpdir(), "stratumc-ui-reader-"));
const WORKER = join(dir, "worker.cjs");
writeFileSync(
  WORKER,
  `const { parentPort, workerData } = require("node:worker_threads");
parentPort.on("message", ({ id, method, args }) => {
  const flowId = args[0];
  if (flowId === "die") process.exit(3);
  if (flowId === "down")
    return parentPort.postMessage({ id, ok: false, message: "down", unavailable: { where: "postgres://db", reason: "refused" } });
  if (flowId === "slow") return setTimeout(() => parentPort.postMessage({ id, ok: true, value: "slow" }), 200);
  parentPort.postMessage({ id, ok: true, value: { method, args, cwd: workerData.cwd, marked: workerData.stratumcUiReader } });
});
`,
);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("workerReader", () => {
  it("answers each request with its own answer, from a worker given the CLI's directory", async () => {
    const reader = workerReader(WORKER, { cwd: "/somewhere", env: {} });
    try {
      const [slow, page] = await Promise.all([reader.page("slow", {}), reader.steps("f1", 100, 10)]);
      expect(slow).toBe("slow");
      expect(page).toEqual({ method: "steps", args: ["f1", 100, 10], cwd: "/somewhere", marked: true });
      expect(await reader.list()).toMatchObject({ method: "list", args: [] });
      const gate = { step_id: "approve", outcome: "approve", note: "n", revision: 3 } as const;
      expect(await reader.gate("f1", gate, "ada")).toMatchObject({
        method: "gate",
        args: ["f1", gate, "ada"],
      });
    } finally {
      reader.close();
    }
  });

  it("keeps a store that cannot be reached a StoreUnavailableError", async () => {
    const reader = workerReader(WORKER, { cwd: dir, env: {} });
    try {
      const failure = await reader.audit("down", 0, 1).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      expect((failure as Error).message).toBe("cannot reach the flow store at postgres://db: refused");
    } finally {
      reader.close();
    }
  });

  it("fails what a dead worker held and starts another for the next request", async () => {
    const reader = workerReader(WORKER, { cwd: dir, env: {} });
    try {
      await expect(reader.page("die", {})).rejects.toThrow(/exit 3/);
      expect(await reader.page("again", {})).toMatchObject({ method: "page", args: ["again", {}] });
    } finally {
      reader.close();
    }
  });

  it("answers from the worker started before it (the command's), then from its own once that one dies", async () => {
    const early = startReaderWorker(WORKER, readerData({ cwd: "/early", env: {} }));
    const exited = new Promise<number>((resolve) => early.once("exit", resolve));
    const reader = workerReader(WORKER, { cwd: "/later", env: {} }, early);
    try {
      expect(await reader.list()).toMatchObject({ method: "list", cwd: "/early", marked: true });
      await expect(reader.page("die", {})).rejects.toThrow(/exit 3/);
      expect(await exited).toBe(3);
      expect(await reader.list()).toMatchObject({ method: "list", cwd: "/later", marked: true });
    } finally {
      reader.close();
    }
  });

  it("fails what is pending when closed", async () => {
    const reader = workerReader(WORKER, { cwd: dir, env: {} });
    const pending = reader.page("slow", {});
    reader.close();
    await expect(pending).rejects.toThrow(/closing/);
  });
});
