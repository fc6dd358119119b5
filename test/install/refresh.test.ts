// Bare `stratum-mcp` refreshes the hook scripts before serving (docs/reference/runtime.md §21.1): silently when
// nothing changed, one summary line when something did or failed, never an exception.
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { refreshHookScripts } from "../../cli/install/command";
import { HOOK_SCRIPTS } from "../../install/generated/hook-scripts";
import { Sandbox } from "./harness";

let sb: Sandbox;
beforeEach(() => {
  sb = new Sandbox();
});
afterEach(() => sb.dispose());

const refresh = () => refreshHookScripts({ host: sb.host(), programName: "stratum-mcp" });

test("missing scripts are installed; then nothing is said", async () => {
  expect(await refresh()).toBe(
    "stratum-mcp: refreshed the hook scripts in ~/.stratum/hooks: stratum-session-start.sh installed, " +
      "stratum-session-stop.sh installed, stratum-post-tool-failure.sh installed\n",
  );
  for (const { name, text } of HOOK_SCRIPTS) {
    expect(readFileSync(join(sb.hooksDir, name), "utf8")).toBe(text);
    expect(statSync(join(sb.hooksDir, name)).mode & 0o777).toBe(0o755);
  }
  expect(await refresh()).toBeNull();
});

test("different and non-executable scripts are fixed", async () => {
  await refresh();
  writeFileSync(join(sb.hooksDir, "stratum-session-start.sh"), "changed\n");
  chmodSync(join(sb.hooksDir, "stratum-session-stop.sh"), 0o600);
  expect(await refresh()).toBe(
    "stratum-mcp: refreshed the hook scripts in ~/.stratum/hooks: stratum-session-start.sh updated, " +
      "stratum-session-stop.sh made executable\n",
  );
  expect(await refresh()).toBeNull();
});

test("a failure is one line, not an exception", async () => {
  writeFileSync(join(sb.root, "file"), "");
  sb.env = { STRATUM_HOME: join(sb.root, "file") };
  expect(await refresh()).toMatch(
    new RegExp(`^stratum-mcp: could not refresh the hook scripts in ${sb.root}/file/hooks: ENOTDIR: .*\\n$`),
  );
});
