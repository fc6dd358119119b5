// Real temporary git repositories and fake agent programs for the parallel host tests.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `stratum-${prefix}-`)));
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** A repository with one commit holding `a.txt` ("one\n") and a `.gitignore` ignoring `*.log`. */
export function makeRepo(): string {
  const repo = tempDir("repo");
  git(repo, "init", "-q");
  git(repo, "config", "user.email", "test@example.com");
  git(repo, "config", "user.name", "Test");
  git(repo, "config", "commit.gpgsign", "false");
  writeFileSync(join(repo, "a.txt"), "one\n");
  writeFileSync(join(repo, ".gitignore"), "*.log\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "initial");
  return repo;
}

/** The paths of the repository's worktrees other than its main one. */
export function linkedWorktrees(repo: string): string[] {
  return git(repo, "worktree", "list", "--porcelain")
    .split("\n")
    .filter((l) => l.startsWith("worktree "))
    .map((l) => l.slice("worktree ".length))
    .filter((p) => p !== repo);
}

/** An executable file in `dir` (a shell or node script: the first line says which). */
export function writeProgram(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

/** True while some process of the group led by `pid` is alive (zombies waiting to be reaped are not). */
export function groupAlive(pid: number): boolean {
  if (!existsSync("/proc/self/stat")) return signalable(-pid);
  return readdirSync("/proc").some((name) => {
    const stat = procStat(name);
    return stat !== null && stat.pgrp === pid && stat.state !== "Z";
  });
}

export function processAlive(pid: number): boolean {
  if (!existsSync("/proc/self/stat")) return signalable(pid);
  const stat = procStat(String(pid));
  return stat !== null && stat.state !== "Z";
}

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Fields of /proc/<pid>/stat after the command name: state, ppid, pgrp. */
function procStat(name: string): { state: string; pgrp: number } | null {
  if (!/^\d+$/.test(name)) return null;
  try {
    const text = readFileSync(`/proc/${name}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "", pgrp: Number(fields[2]) };
  } catch {
    return null;
  }
}
