// The built reader worker (dist/ui-reader.cjs, run `node scripts/build.mjs` first): a long flow's
// page asked while the worker is still starting — before it could warm the first answer's code
// (ui/first-page-warmup.ts) — is taken from its port's queue and answered unchecked, and the
// checked page follows; a worker left idle warms up and still answers the same first page.
import { mkdtempSync, rmSync } from "node:fs";
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
