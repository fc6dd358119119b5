// Temporary files `<id>.json.tmp-<pid>-<random>` left by a writer that was
// killed inside a commit are removed when the store opens, when the flow is read, and when a
// commit takes the dead writer's lock over; a live writer's temporary file is never removed.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileFlowStore } from "../../host/file-store/file-store";
import { engine, killHard, planFlow, result, spawnLockHolder } from "./store-support";

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "stratum-hostile-tmp-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const temporaries = (dir: string) => readdirSync(dir).filter((n) => n.includes(".tmp-"));

describe.runIf(process.platform === "linux")("temporary files of dead writers", () => {
  it("are removed when the store opens", async () => {
    const store = new FileFlowStore(home);
    const id = await planFlow(engine(store, home));
    const holder = spawnLockHolder(store.flowsDir, id);
    await holder.locked;
    await killHard(holder.child);
    expect(temporaries(store.flowsDir)).toHaveLength(1);
    new FileFlowStore(home);
    expect(temporaries(store.flowsDir)).toEqual([]);
  });

  it("are removed when the flow is read, and when a commit takes the dead writer's lock over", async () => {
    const store = new FileFlowStore(home);
    const api = engine(store, home);
    const id = await planFlow(api);
    for (const act of ["read", "commit"] as const) {
      const holder = spawnLockHolder(store.flowsDir, id);
      await holder.locked;
      await killHard(holder.child);
      expect(temporaries(store.flowsDir)).toHaveLength(1);
      if (act === "read") {
        expect(await store.read(id)).not.toBeNull();
        expect(temporaries(store.flowsDir)).toEqual([]);
        rmSync(join(store.flowsDir, `${id}.json.lock`)); // leave the next round a fresh start
      } else {
        const r = await api.stepDone({ flow_id: id, step_id: "a", result: result("x") });
        expect(r.status).toBe("execute_step");
        expect(readdirSync(store.flowsDir).sort()).toEqual([`${id}.journal`, `${id}.json`]);
      }
    }
  });

  it("a live writer's temporary file is kept, whether or not it holds the lock", async () => {
    const store = new FileFlowStore(home);
    const id = await planFlow(engine(store, home));
    const holder = spawnLockHolder(store.flowsDir, id);
    try {
      await holder.locked;
      new FileFlowStore(home);
      expect(await store.read(id)).not.toBeNull();
      expect(temporaries(store.flowsDir)).toHaveLength(1);
      // Without its lock (not how a writer works, but the pid alone must protect it).
      rmSync(join(store.flowsDir, `${id}.json.lock`));
      new FileFlowStore(home);
      expect(temporaries(store.flowsDir)).toHaveLength(1);
    } finally {
      await killHard(holder.child);
    }
    new FileFlowStore(home);
    expect(temporaries(store.flowsDir)).toEqual([]);
  });

  it("a dead pid's temporary file is kept while the flow's lock has an owner not known to be gone", async () => {
    const store = new FileFlowStore(home);
    const id = await planFlow(engine(store, home));
    const dead = spawn("true");
    await new Promise((resolve) => dead.once("exit", resolve));
    const tmp = join(store.flowsDir, `${id}.json.tmp-${dead.pid}-abc`);
    writeFileSync(tmp, "x");
    // A writer on another host sharing the store: its pid means nothing here.
    writeFileSync(join(store.flowsDir, `${id}.json.lock`), "4242 cafe 1 another-host.invalid\n");
    new FileFlowStore(home);
    expect(existsSync(tmp)).toBe(true);
    rmSync(join(store.flowsDir, `${id}.json.lock`));
    new FileFlowStore(home);
    expect(existsSync(tmp)).toBe(false);
  });
});
