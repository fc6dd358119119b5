// No lost update between processes (docs/reference/runtime.md §14.3): two child processes increment a counter
// stored in one flow at the same time, each by read → modify → commit with the revision it read,
// retrying on stale_state / state_locked. The final counter and revision equal the number of
// acknowledged increments.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileFlowStore } from "../../../host/file-store/file-store";
import { buildStoreChild, type Child, exited, onLines, spawnChild, stderrOf } from "./child-bundle";
import { storedPayload } from "./flow-text";

const PER_CHILD = 250;

let bundle: string;
let bundleDir: string;
let home: string;

beforeAll(async () => {
  ({ bundle, dir: bundleDir } = await buildStoreChild());
  home = mkdtempSync(join(tmpdir(), "stratum-two-process-"));
});
afterAll(() => {
  rmSync(bundleDir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

interface Counted {
  readonly child: Child;
  readonly result: Promise<{ increments: number; retries: number; code: number | null; stderr: string }>;
}

function incrementer(): Counted {
  const child = spawnChild(bundle, ["increment", home, "counter", String(PER_CHILD)]);
  const stderr = stderrOf(child);
  let increments = 0;
  let retries = 0;
  onLines(child, (line) => {
    if (line === "+1") increments += 1;
    else if (line.startsWith("retries ")) retries = Number(line.slice("retries ".length));
  });
  const result = exited(child).then(({ code }) => ({ increments, retries, code, stderr: stderr() }));
  return { child, result };
}

describe("file store with two writers", () => {
  it("loses no increment", async () => {
    const writers = [incrementer(), incrementer()];
    // Both start together (each waits for a line on stdin), so their commits interleave.
    for (const w of writers) w.child.stdin.end("go\n");
    const results = await Promise.all(writers.map((w) => w.result));
    for (const r of results) expect(r).toMatchObject({ code: 0, stderr: "", increments: PER_CHILD });

    const stored = await storedPayload(new FileFlowStore(home), "counter");
    const { revision, payload } = stored ?? { revision: 0, payload: null };
    expect(payload).toBe(2 * PER_CHILD);
    expect(revision).toBe(2 * PER_CHILD);
    process.stderr.write(
      `two-process test: ${2 * PER_CHILD} increments, ${results.map((r) => r.retries).join(" + ")} retries\n`,
    );
  }, 120_000);
});
