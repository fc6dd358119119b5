// `check --watch` in process (cli/check/watch.ts): what is watched, clearing the screen only on a
// terminal, a new spec in a watched directory, other files ignored, stopping.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { watchChecks, watchTargets } from "../../cli/check/watch";
import type { CommandContext } from "../../cli/command-context";

const dir = mkdtempSync(join(tmpdir(), "stratumc-watch-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function context(tty: boolean, out: string[]): CommandContext {
  return {
    io: { out: (t) => void out.push(t), err: (t) => void out.push(`ERR:${t}`) },
    host: { cwd: dir, env: {}, stdoutIsTTY: tty, stderrIsTTY: tty, readStdin: async () => new Uint8Array() },
    programName: "stratumc",
    setExitCode: () => undefined,
  };
}

async function until(what: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!what()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("watch", () => {
  it("watches directories recursively, files through their directory, globs from the working directory", () => {
    mkdirSync(join(dir, "specs"), { recursive: true });
    expect(watchTargets(["specs", "a.stratum.yaml", "**/*.yaml"], dir)).toEqual([
      { dir: join(dir, "specs"), recursive: true },
      { dir, recursive: false, file: "a.stratum.yaml" },
      { dir, recursive: true },
    ]);
    expect(watchTargets([], dir)).toEqual([{ dir, recursive: true }]);
  });

  it("re-checks when a spec appears or changes (not for other files), clears a terminal, stops on abort", async () => {
    const out: string[] = [];
    let runs = 0;
    const stop = new AbortController();
    const done = watchChecks(
      ["specs"],
      async () => {
        runs++;
        return runs;
      },
      context(true, out),
      stop.signal,
    );
    await until(() => runs === 1);
    expect(out[0]).toBe("\x1b[2J\x1b[3J\x1b[H");
    writeFileSync(join(dir, "specs", "notes.txt"), "x");
    await new Promise((r) => setTimeout(r, 400));
    expect(runs).toBe(1);
    writeFileSync(join(dir, "specs", "new.stratum.yaml"), "version: '0.2'\n");
    await until(() => runs === 2);
    stop.abort();
    expect(await done).toBe(2);
    expect(out.filter((t) => t.startsWith("\x1b[2J"))).toHaveLength(2);
  });
});
