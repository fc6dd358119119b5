// The built reader worker (dist/ui-reader.cjs, run `node scripts/build.mjs` first): a long flow's
// page asked while the worker is still starting — before it could warm the first answer's code
// (ui/first-page-warmup.ts) — is taken from its port's queue and answered unchecked, and the
// checked page follows; a worker left idle warms up and still answers the same first page; the
// worker of a `stratumc ui` started from the CLI's startup snapshot (bin/stratumc.cjs) answers too.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { FlowPage } from "../../ui/api-types";
import { type FlowReader, workerReader } from "../../ui/flow-reader";
import type { Loaded } from "../../ui/flow-source";
import { ensureBundle, REPO } from "../cli/run-cli";
import { writeBigFlow } from "../hostile/ui-support";

const home = mkdtempSync(join(tmpdir(), "stratumc-ui-worker-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
ensureBundle();
const flowId = writeBigFlow(home, 3_000);

function reader(): FlowReader {
  return workerReader(join(REPO, "dist/ui-reader.cjs"), {
    cwd: home,
    env: { ...process.env, STRATUM_HOME: home },
  });
}

function page(loaded: Loaded<FlowPage>): FlowPage {
  if (loaded.kind !== "ok") throw new Error(`not answered: ${loaded.kind}`);
  return loaded.value;
}

describe("the built reader worker", () => {
  it("answers a long flow's first page asked as it starts, unchecked, then the checked page", async () => {
    const asked = reader();
    try {
      const first = page(await asked.page(flowId, {}));
      expect(first.unchecked).toBe(true);
      const checked = page(await asked.page(flowId, {}));
      expect(checked.unchecked).toBeUndefined();
      expect(first.steps).toEqual(checked.steps);
    } finally {
      asked.close();
    }
  });

  it("answers the same first page once it has been idle (warmed up)", async () => {
    const cold = reader();
    const idle = reader();
    try {
      const atOnce = page(await cold.page(flowId, {}));
      // The idle worker's first request comes after its host and warm-up: the answer is the same.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const later = page(await idle.page(flowId, {}));
      expect(later).toEqual(atOnce);
      expect(later.unchecked).toBe(true);
    } finally {
      cold.close();
      idle.close();
    }
  });
});

const BLOB = join(REPO, "dist/stratumc.blob");

describe.skipIf(process.platform === "win32" || !existsSync(BLOB))(
  "`stratumc ui` started from the startup snapshot",
  () => {
    it("reads flows in its worker (a snapshot that loaded node:worker_threads crashes every worker it starts)", async () => {
      const child = spawn(process.execPath, ["--snapshot-blob", BLOB, "--", "ui", "--port", "0"], {
        cwd: home,
        env: { ...process.env, STRATUM_HOME: home },
        stdio: ["ignore", "pipe", "pipe"],
      });
      try {
        const url = await new Promise<URL>((resolve, reject) => {
          let out = "";
          child.stdout.on("data", (chunk: Buffer) => {
            out += chunk.toString("utf8");
            const m = /stratumc ui: (http:\/\/\S+)\n/.exec(out);
            if (m?.[1] !== undefined) resolve(new URL(m[1]));
          });
          child.once("exit", (code) => reject(new Error(`exited (${code}) before printing its address`)));
        });
        const auth = { Authorization: `Bearer ${url.searchParams.get("token") ?? ""}` };
        const answer = await fetch(`${url.origin}/api/flows/${flowId}`, { headers: auth });
        expect(answer.status).toBe(200);
        const first = (await answer.json()) as FlowPage;
        expect(first.flow.flow_id).toBe(flowId);
        expect(first.steps.at(-1)?.id).toBe("approve");
        const inbox = await fetch(`${url.origin}/api/inbox?limit=1`, { headers: auth });
        expect(inbox.status).toBe(200);
      } finally {
        child.kill("SIGTERM");
      }
    });
  },
);
