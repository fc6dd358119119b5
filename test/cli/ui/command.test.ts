// `stratumc ui` as a command (the built bin): what it refuses before it serves, with exit 2 and a
// message saying what to do, and the line it prints when it serves.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempTree } from "../../hostile/workspace-support";
import { startUi } from "../../ui/browser-support";
import { ensureBundle, REPO } from "../run-cli";

const tree = tempTree("stratumc-ui-command-");
afterAll(() => tree.dispose());

function ui(args: string[], env: Record<string, string> = {}) {
  ensureBundle();
  return spawnSync(process.execPath, [join(REPO, "bin/stratumc.cjs"), "ui", ...args], {
    env: { PATH: process.env.PATH ?? "", STRATUM_HOME: tree.path, ...env },
    encoding: "utf8",
    timeout: 10_000,
  });
}

describe("stratumc ui", () => {
  it("refuses a non-loopback address without an explicit token", () => {
    const r = ui(["--host", "0.0.0.0", "--port", "0"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("stratumc ui: --host 0.0.0.0 makes the page reachable from other machines");
    expect(r.stdout).toBe("");
  });

  it("refuses a short token", () => {
    const r = ui(["--token", "short", "--port", "0"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("at least 16 characters");
  });

  it("refuses a port that is not a number", () => {
    const r = ui(["--port", "http"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("a port number from 0 to 65535");
  });

  it("says which port is in use and how to choose another", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const r = ui(["--port", String(port)]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`port ${port} is in use: choose another with --port`);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    } finally {
      taken.close();
    }
  });

  // xdg-open is the opener on Linux only (macOS uses `open`, Windows `start`), hence the condition.
  it.runIf(process.platform === "linux")("--open hands the address with its token to xdg-open", async () => {
    const bin = join(tree.path, "bin");
    const opened = join(tree.path, "opened.txt");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, { mode: 0o755 });
    const running = await startUi(tree.path, ["--open"], { PATH: `${bin}:${process.env.PATH ?? ""}` });
    try {
      for (let i = 0; i < 50 && !existsSync(opened); i++) await new Promise((r) => setTimeout(r, 50));
      expect(readFileSync(opened, "utf8")).toBe(running.url);
    } finally {
      await running.stop();
    }
  });

  it("prints its address with the token, serves with a configured token, and stops on SIGTERM", async () => {
    const running = await startUi(tree.path, ["--token", "a-configured-token-of-some-length"]);
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=a-configured-token-of-some-length$/);
    const r = await fetch(`${running.origin}/api/flows`, {
      headers: { Authorization: "Bearer a-configured-token-of-some-length" },
    });
    expect(r.status).toBe(200);
    expect(running.stderr()).toContain(`the flows of ${tree.path}`);
    expect(await running.stop()).toBe(0);
  });
});
