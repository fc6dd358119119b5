// The Claude Code installer's public surface (docs/reference/runtime.md §22): `install`, `uninstall` and the
// hook refresh of bare `stratum-mcp`, run by the CLI's command wiring (cli/install/).

export { SKILLS } from "./generated/skills";
export { MissingHookScriptError, refreshHooks } from "./hook-scripts";
export { InstallError, reason, runInstall } from "./install";
export { displayHomePath, homeDir, hooksDir, installPaths } from "./paths";
export { runUninstall } from "./uninstall";
