// Worktrees of server-side parallel tasks (host/parallel/worktree.ts, docs/reference/runtime.md §23.10), on
// real temporary git repositories.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  captureWorktreeDiff,
  createWorktree,
  removeWorktree,
  WorktreeError,
  worktreePath,
} from "../../../host/parallel/worktree";
import { git, linkedWorktrees, makeRepo, tempDir } from "./fixtures";

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

describe("creating and removing a worktree", () => {
  it("creates a detached worktree of HEAD at <root>/<flow>/<task> and removes it with its flow directory", async () => {
    const path = await createWorktree(root, "flow-1", "t1", repo);
    expect(path).toBe(join(root, "flow-1", "t1"));
    expect(readFileSync(join(path, "a.txt"), "utf8")).toBe("one\n");
    expect(linkedWorktrees(repo)).toEqual([path]);
    expect(git(path, "rev-parse", "HEAD")).toBe(git(repo, "rev-parse", "HEAD"));
    expect(git(path, "status", "--porcelain", "--branch")).toContain("## HEAD (no branch)");

    await removeWorktree(repo, path);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(join(root, "flow-1"))).toBe(false);
    expect(existsSync(root)).toBe(true);
    expect(linkedWorktrees(repo)).toEqual([]);
  });

  it("creates two tasks' worktrees at the same time; the flow directory goes with the last one", async () => {
    const [p1, p2] = await Promise.all([
      createWorktree(root, "flow-1", "t1", repo),
      createWorktree(root, "flow-1", "t2", repo),
    ]);
    expect(linkedWorktrees(repo).sort()).toEqual([p1, p2].sort());
    writeFileSync(join(p1, "a.txt"), "changed in t1\n");
    expect(readFileSync(join(p2, "a.txt"), "utf8")).toBe("one\n");

    await removeWorktree(repo, p1);
    expect(readdirSync(join(root, "flow-1")).sort()).toEqual([".t2.owner", "t2"]);
    await removeWorktree(repo, p2);
    expect(existsSync(join(root, "flow-1"))).toBe(false);
    expect(linkedWorktrees(repo)).toEqual([]);
  });

  it("starts from the committed HEAD of a dirty repository, without its uncommitted changes", async () => {
    writeFileSync(join(repo, "a.txt"), "uncommitted\n");
    writeFileSync(join(repo, "new.txt"), "untracked\n");
    const path = await createWorktree(root, "f", "t", repo);
    expect(readFileSync(join(path, "a.txt"), "utf8")).toBe("one\n");
    expect(existsSync(join(path, "new.txt"))).toBe(false);
    await removeWorktree(repo, path);
    expect(readFileSync(join(repo, "a.txt"), "utf8")).toBe("uncommitted\n");
  });

  it("works from a subdirectory of the repository", async () => {
    mkdirSync(join(repo, "sub"));
    const path = await createWorktree(root, "f", "t", join(repo, "sub"));
    expect(readFileSync(join(path, "a.txt"), "utf8")).toBe("one\n");
    await removeWorktree(join(repo, "sub"), path);
    expect(linkedWorktrees(repo)).toEqual([]);
  });

  it("removes a worktree that has modified, new and ignored files", async () => {
    const path = await createWorktree(root, "f", "t", repo);
    writeFileSync(join(path, "a.txt"), "modified\n");
    writeFileSync(join(path, "b.txt"), "new\n");
    writeFileSync(join(path, "debug.log"), "ignored\n");
    await removeWorktree(repo, path);
    expect(existsSync(path)).toBe(false);
    expect(linkedWorktrees(repo)).toEqual([]);
  });

  it("deletes the directory and prunes the entry when git refuses the removal", async () => {
    const path = await createWorktree(root, "f", "t", repo);
    writeFileSync(join(path, ".git"), "not a gitdir link\n");
    await removeWorktree(repo, path);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(join(root, "f"))).toBe(false);
    expect(linkedWorktrees(repo)).toEqual([]);
  });

  it("replaces a worktree left behind at the same place (a crashed server)", async () => {
    const first = await createWorktree(root, "f", "t", repo);
    writeFileSync(join(first, "a.txt"), "left over\n");
    const second = await createWorktree(root, "f", "t", repo);
    expect(second).toBe(first);
    expect(readFileSync(join(second, "a.txt"), "utf8")).toBe("one\n");
    expect(linkedWorktrees(repo)).toEqual([second]);
    await removeWorktree(repo, second);
  });

  it("removing a worktree that is already gone does nothing", async () => {
    await expect(removeWorktree(repo, join(root, "f", "gone"))).resolves.toBeUndefined();
  });
});

describe("worktree setup failures (the reference's WorktreeError texts)", () => {
  it("a directory outside any git repository: git's own message, nothing left behind", async () => {
    const plain = tempDir("plain");
    try {
      const error = await createWorktree(root, "f", "t", plain).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WorktreeError);
      expect((error as Error).message).toMatch(/^git worktree add failed: fatal: not a git repository/);
      expect(existsSync(join(root, "f"))).toBe(false);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });

  it("a working directory that does not exist", async () => {
    const missing = join(home, "nope");
    await expect(createWorktree(root, "f", "t", missing)).rejects.toThrow(
      `git worktree add failed: no such directory '${missing}'`,
    );
  });

  it("the time limit", async () => {
    const error = await createWorktree(root, "f", "t", repo, undefined, { gitTimeoutMs: 1 }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe("git worktree add timed out after 0.001s");
    // (The clean-up runs under the same 1 ms limit, so only the directory's removal is certain.)
    expect(existsSync(join(root, "f", "t"))).toBe(false);
  });

  it("a repository without commits (no HEAD)", async () => {
    const empty = tempDir("empty");
    try {
      git(empty, "init", "-q");
      await expect(createWorktree(root, "f", "t", empty)).rejects.toThrow(/^git worktree add failed: .+/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("task and flow ids never escape the root: they are refused, not sanitised", () => {
  const unsafe: Array<[string, string]> = [
    ["../x", "'../x'"],
    ["..", "'..'"],
    [".", "'.'"],
    ["/", "'/'"],
    ["/etc", "'/etc'"],
    ["a/b", "'a/b'"],
    ["a\\b", "'a\\\\b'"],
    ["", "''"],
    ["a\0b", "'a\\x00b'"],
    [".hidden", "'.hidden'"],
    ["x".repeat(129), `'${"x".repeat(129)}'`],
  ];
  it.each(unsafe)("task id %j → unsafe task id %s", async (taskId, shown) => {
    expect(() => worktreePath(root, "f", taskId)).toThrow(new WorktreeError(`unsafe task id ${shown}`));
    await expect(createWorktree(root, "f", taskId, repo)).rejects.toThrow(`unsafe task id ${shown}`);
    expect(existsSync(root)).toBe(false);
    expect(linkedWorktrees(repo)).toEqual([]);
  });

  it("an unsafe flow id is refused too", () => {
    expect(() => worktreePath(root, "../f", "t")).toThrow("unsafe flow id '../f'");
  });

  it("ordinary ids are kept as they are", () => {
    expect(worktreePath(root, "f", "task-1.a_b")).toBe(join(root, "f", "task-1.a_b"));
  });
});

describe("capture_diff: git add -A, then git diff --cached HEAD in the worktree", () => {
  it("includes changed and new files, not ignored ones", async () => {
    const path = await createWorktree(root, "f", "t", repo);
    writeFileSync(join(path, "a.txt"), "two\n");
    writeFileSync(join(path, "b.txt"), "brand new\n");
    writeFileSync(join(path, "trace.log"), "ignored\n");
    const { diff, diffError } = await captureWorktreeDiff(path);
    expect(diffError).toBeNull();
    expect(diff).toContain("diff --git a/a.txt b/a.txt");
    expect(diff).toContain("-one\n+two\n");
    expect(diff).toContain("diff --git a/b.txt b/b.txt\nnew file mode 100644");
    expect(diff).toContain("+brand new\n");
    expect(diff).not.toContain("trace.log");
    await removeWorktree(repo, path);
  });

  it("is the empty string when nothing changed", async () => {
    const path = await createWorktree(root, "f", "t", repo);
    expect(await captureWorktreeDiff(path)).toEqual({ diff: "", diffError: null });
    await removeWorktree(repo, path);
  });

  it("a failing git command: diff null and the reference's CalledProcessError text with stderr", async () => {
    const plain = tempDir("plain");
    try {
      const { diff, diffError } = await captureWorktreeDiff(plain);
      expect(diff).toBeNull();
      expect(diffError).toMatch(
        /^CalledProcessError: Command '\['git', '-c', 'core\.hooksPath=\/dev\/null', 'add', '-A'\]' returned non-zero exit status 128\. \| stderr: fatal: not a git repository/,
      );
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });

  it("an interruption gives 'cancelled during diff capture'", async () => {
    const path = await createWorktree(root, "f", "t", repo);
    const capture = await captureWorktreeDiff(path, { signal: AbortSignal.abort() });
    expect(capture).toEqual({ diff: null, diffError: "cancelled during diff capture" });
    await removeWorktree(repo, path);
  });

  it("a diff beyond the size limit is refused", async () => {
    const path = await createWorktree(root, "f", "t", repo);
    writeFileSync(join(path, "big.txt"), "x".repeat(10_000));
    const { diff, diffError } = await captureWorktreeDiff(path, { maxBytes: 1_000 });
    expect(diff).toBeNull();
    expect(diffError).toBe(
      "DiffTooLarge: Command '['git', '-c', 'core.hooksPath=/dev/null', 'diff', '--cached', 'HEAD']' printed more than 1000 bytes",
    );
    await removeWorktree(repo, path);
  });

  it("invalid UTF-8 in the diff is replaced, not fatal", async () => {
    const path = await createWorktree(root, "f", "t", repo);
    writeFileSync(join(path, "a.txt"), Buffer.from([0x6f, 0x6b, 0xff, 0x0a]));
    const { diff } = await captureWorktreeDiff(path);
    expect(diff).toContain("+ok\uFFFD\n");
    await removeWorktree(repo, path);
  });
});
