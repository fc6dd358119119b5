// A lock knows its owner (pid, /proc start time, host). A lock whose owner was
// killed is taken over at once — not after the 30 s age limit — by writes and never needed by
// reads; a lock of a live process still blocks (state_locked after the 2 s wait); a lock whose pid
// now belongs to another process (same pid, other start time) is taken over.
import { spawn } from "node:child_process";
import { lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileFlowStore } from "../../host/file-store/file-store";
import { readStartTime } from "../../host/file-store/process-identity";
import { bundleChild, exited, spawnChild } from "../interpreter/store/child-bundle";
import { engine, killHard, planFlow, result, spawnLockHolder, timed } from "./store-support";

const linux = process.platform === "linux";
/** Whether a lock exists: lstat, because a lock is a symbolic link to nothing (existsSync follows it). */
const lockPresent = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;
let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "stratum-hostile-lock-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe.runIf(linux)("locks of dead owners", () => {
  it("a lock held by a SIGKILLed process is taken over at once, by writes; reads never wait for it", async () => {
    const store = new FileFlowStore(home);
    const api = engine(store, home);
    const id = await planFlow(api);
    const holder = spawnLockHolder(store.flowsDir, id);
    await holder.locked;
    await killHard(holder.child);
    expect(lockPresent(join(store.flowsDir, `${id}.json.lock`))).toBe(true);

    // A read-only call takes no lock at all.
    const read = await timed(() => api.audit({ flow_id: id }));
    expect(read.value.status).not.toBe("error");
    expect(read.ms).toBeLessThan(2000);

    const write = await timed(() => api.stepDone({ flow_id: id, step_id: "a", result: result("x") }));
    expect(write.value.status).toBe("execute_step");
    // Far below the 30 s age limit (and below the 2 s lock wait: no retry loop ran out).
    expect(write.ms).toBeLessThan(2000);
    expect(lockPresent(join(store.flowsDir, `${id}.json.lock`))).toBe(false);
  });

  it("a lock held by a live process still blocks: state_locked after the wait", async () => {
    const store = new FileFlowStore(home, { lock: { timeoutMs: 300 } });
    const api = engine(store, home);
    const id = await planFlow(api);
    const holder = spawnLockHolder(store.flowsDir, id);
    try {
      await holder.locked;
      const write = await api.stepDone({ flow_id: id, step_id: "a", result: result("x") });
      expect(write.status).toBe("error");
      expect(write.error_type).toBe("state_locked");
      expect(readFileSync(join(store.flowsDir, `${id}.json.lock`), "utf8")).toMatch(/ deadbeef /);
    } finally {
      await killHard(holder.child);
    }
    // Once it is dead, the same call goes through.
    const retry = await timed(() => api.stepDone({ flow_id: id, step_id: "a", result: result("x") }));
    expect(retry.value.status).toBe("execute_step");
    expect(retry.ms).toBeLessThan(2000);
  });

  it("a lock whose pid was reused (alive, another start time) is taken over", async () => {
    const store = new FileFlowStore(home, { lock: { timeoutMs: 300 } });
    const api = engine(store, home);
    const id = await planFlow(api);
    // A live process (a sleeping child) whose pid the lock names, with a start time it does not have.
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      const pid = other.pid!;
      const start = readStartTime(pid);
      expect(start).not.toBeNull();
      const reused = String(BigInt(start!) - 1n);
      writeFileSync(join(store.flowsDir, `${id}.json.lock`), `${pid} cafe ${reused} ${hostname()}\n`);
      const write = await timed(() => api.stepDone({ flow_id: id, step_id: "a", result: result("x") }));
      expect(write.value.status).toBe("execute_step");
      expect(write.ms).toBeLessThan(1000);

      // The same pid with its true start time is a live owner: it blocks.
      writeFileSync(join(store.flowsDir, `${id}.json.lock`), `${pid} cafe ${start} ${hostname()}\n`);
      const blocked = await api.stepDone({ flow_id: id, step_id: "b", result: result("y") });
      expect(blocked.error_type).toBe("state_locked");
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("a lock of another host, or without an owner, is stale only by age (30 s)", async () => {
    const store = new FileFlowStore(home, { lock: { timeoutMs: 200 } });
    const api = engine(store, home);
    const id = await planFlow(api);
    const lock = join(store.flowsDir, `${id}.json.lock`);
    writeFileSync(lock, `1 cafe 1 some-other-host.invalid\n`); // pid 1 of another host: not judged here
    expect((await api.stepDone({ flow_id: id, step_id: "a", result: result("x") })).error_type).toBe(
      "state_locked",
    );
    const aged = new FileFlowStore(home, { lock: { timeoutMs: 200, now: () => Date.now() + 31_000 } });
    const write = await engine(aged, home).stepDone({ flow_id: id, step_id: "a", result: result("x") });
    expect(write.status).toBe("execute_step");
  });
});

describe.runIf(linux)("the takeover protocol under contention", () => {
  it("several processes breaking the same dead locks never hold the lock together", async () => {
    const { bundle, dir } = await bundleChild(join(__dirname, "lock-race-child.ts"));
    try {
      const dead = spawn("true");
      await new Promise((resolve) => dead.once("exit", resolve));
      // The first lock is already abandoned: every child starts by racing to take it over.
      writeFileSync(join(home, "flow.json.lock"), `${dead.pid} first 1 ${hostname()}\n`);
      const children = Array.from({ length: 6 }, () => spawnChild(bundle, [home, "40", String(dead.pid)]));
      const outputs = await Promise.all(
        children.map(async (child) => {
          let out = "";
          child.stdout.on("data", (d: Buffer) => {
            out += d.toString();
          });
          const { code } = await exited(child);
          return { code, out };
        }),
      );
      for (const { code, out } of outputs) {
        expect(out).not.toContain("overlap");
        expect(code).toBe(0);
      }
      const takeovers = outputs.reduce((n, { out }) => n + Number(/done (\d+)/.exec(out)?.[1] ?? 0), 0);
      expect(takeovers).toBeGreaterThan(10); // about half of the 240 holds end "dead"
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
