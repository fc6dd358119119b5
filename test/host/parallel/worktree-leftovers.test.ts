// Worktrees of dead servers (host/parallel/worktree-leftovers.ts, docs/reference/runtime.md §23.10), on real
// temporary git repositories, with owner markers naming a real dead process, this process, and a
// process of another host.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createExecutorOwners } from "../../../host/parallel/executor-owners";
import { createWorktree, ownerMarkerPath, removeWorktree } from "../../../host/parallel/worktree";
import { removeDeadWorktrees } from "../../../host/parallel/worktree-leftovers";
import { linkedWorktrees, makeRepo, tempDir } from "./fixtures";

let repo: string;
let home: string;
let root: string;
beforeEach(() => {
  repo = makeRepo();
  home = tempDir("home");
  root = join(home, "worktrees");
});
afterEach(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const run = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  return Number(run.stdout);
}

function markOwner(path: string, pid: number, host = hostname()): void {
  writeFileSync(ownerMarkerPath(path), `${pid} t-1 - ${host}\n`);
}

describe("removeDeadWorktrees", () => {
  it("removes a dead server's worktree, prunes it from the repository, and removes the empty flow directory", async () => {
    const path = await createWorktree(root, "flow-1", "t1", repo);
    writeFileSync(join(path, "work.txt"), "left over\n");
    markOwner(path, deadPid());
    expect(await removeDeadWorktrees(root)).toBe(1);
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(root)).toEqual([]);
    expect(linkedWorktrees(repo)).toEqual([]);
  });

  it("keeps the worktrees of this process and of another host", async () => {
    const mine = await createWorktree(root, "flow-1", "t1", repo);
    const theirs = await createWorktree(root, "flow-1", "t2", repo);
    markOwner(theirs, deadPid(), "another-host.example");
    expect(await removeDeadWorktrees(root)).toBe(0);
    expect(linkedWorktrees(repo).sort()).toEqual([mine, theirs].sort());
    await removeWorktree(repo, mine);
    await removeWorktree(repo, theirs);
    expect(existsSync(root) && readdirSync(root)).toEqual([]);
  });

  it("a worktree without a marker goes only when its flow has no live executor", async () => {
    const owners = join(home, "parallel-executors");
    const a = await createWorktree(root, "flow-a", "t1", repo);
    const b = await createWorktree(root, "flow-b", "t1", repo);
    rmSync(ownerMarkerPath(a));
    rmSync(ownerMarkerPath(b));
    expect(createExecutorOwners(owners).claim("flow-b")).toBe(true);
    expect(await removeDeadWorktrees(root, { ownersDir: owners })).toBe(1);
    expect(existsSync(a)).toBe(false);
    expect(linkedWorktrees(repo)).toEqual([b]);
    await removeWorktree(repo, b);
  });

  it("removes a dead server's marker of a worktree never created, and what an earlier cleanup left aside", async () => {
    mkdirSync(join(root, "flow-1"), { recursive: true });
    markOwner(join(root, "flow-1", "t9"), deadPid());
    const aside = join(root, `.leftover-${deadPid()}-abc123`);
    mkdirSync(join(aside, "deep"), { recursive: true });
    writeFileSync(join(aside, "deep", "f"), "x");
    expect(await removeDeadWorktrees(root)).toBe(1);
    expect(readdirSync(root)).toEqual([]);
  });

  it("never follows a symbolic link planted in the root", async () => {
    const outside = tempDir("outside");
    try {
      writeFileSync(join(outside, "precious"), "keep\n");
      mkdirSync(join(root, "flow-1"), { recursive: true });
      symlinkSync(outside, join(root, "flow-1", "t1"));
      markOwner(join(root, "flow-1", "t1"), deadPid());
      symlinkSync(outside, join(root, "flow-2"));
      await removeDeadWorktrees(root);
      expect(readdirSync(outside)).toEqual(["precious"]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("a root that does not exist: nothing to do", async () => {
    expect(await removeDeadWorktrees(join(home, "none"))).toBe(0);
  });
});
