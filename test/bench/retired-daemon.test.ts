// The resident checker was retired (docs/design/startup.md): a user who still sets its variables
// gets the ordinary check, byte for byte, with nothing started and no socket directory made; the
// `daemon` command is an unknown command like any other. The real launcher, run as a program.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundle } from "../cli/run-cli";
import { REPO, TYPICAL } from "./cli-fixtures";

const BIN = join(REPO, "bin/stratumc.cjs");
let work: string;

beforeAll(() => {
  ensureBundle();
  work = mkdtempSync(join(tmpdir(), "stratumc-retired-daemon-"));
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

function run(args: readonly string[], extra: Record<string, string>) {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const k of ["NODE_OPTIONS", "FORCE_COLOR", "NO_COLOR", "STRATUMC_DAEMON", "STRATUMC_DAEMON_DIR"])
    if (extra[k] === undefined) delete env[k];
  const r = spawnSync(BIN, args, { cwd: work, env, encoding: "utf8", input: "" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(process.platform === "win32")(
  "STRATUMC_DAEMON after the resident checker's retirement",
  () => {
    it("is ignored: the same check, and no socket directory is made", () => {
      const dir = join(work, "sockets");
      for (const value of ["1", "use"]) {
        const args = ["check", TYPICAL];
        const plain = run(args, {});
        expect(run(args, { STRATUMC_DAEMON: value, STRATUMC_DAEMON_DIR: dir })).toEqual(plain);
        expect(plain.status).toBe(0);
      }
      expect(existsSync(dir)).toBe(false);
    });

    it("`stratumc daemon start` is an unknown command (usage error, exit 2)", () => {
      const r = run(["daemon", "start"], {});
      expect(r.status).toBe(2);
      expect(r.stderr).toContain("unknown command 'daemon'");
      expect(r.stdout).toBe("");
    });
  },
);
