// The project side of the hooks (runtime.md §22.1 step 6, §22.2 step 4): the entries in
// `.claude/settings.json` and the per-project copies `.claude/hooks/<script>` older versions made.
import { join } from "node:path";
import { readJsonObject, removeFile, writeJson } from "./files";
import { HOOK_EVENTS } from "./hook-scripts";
import type { Report } from "./report";
import { hookCommand, registerHooks, unregisterHooks } from "./settings-hooks";

export const SETTINGS = ".claude/settings.json";

/** Deletes `.claude/hooks/<script>` copies, one `removed old copy` line each. */
export function removeOldCopies(projectRoot: string, report: Report): void {
  for (const { script } of HOOK_EVENTS) {
    const rel = `.claude/hooks/${script}`;
    if (removeFile(join(projectRoot, rel))) report.item(rel, "removed old copy", true);
  }
}

export function registerProjectHooks(projectRoot: string, hooksDir: string, report: Report): void {
  removeOldCopies(projectRoot, report);
  const path = join(projectRoot, SETTINGS);
  const file = readJsonObject(path);
  // An invalid settings file is left alone rather than counted as {} (§22.1): overwriting it
  // would throw away the user's other settings (docs/decisions.md).
  if (file.kind === "unreadable") {
    report.item(SETTINGS, "unreadable, left alone", false);
    return;
  }
  const settings = file.kind === "object" ? file.value : {};
  const commands = new Map(
    HOOK_EVENTS.map(({ event, script }) => [event, hookCommand(join(hooksDir, script))]),
  );
  const { settings: next, changed } = registerHooks(settings, commands);
  if (changed) writeJson(path, next);
  report.item(SETTINGS, changed ? "hooks registered" : "hooks already registered", changed);
}

export function unregisterProjectHooks(projectRoot: string, report: Report): void {
  removeOldCopies(projectRoot, report);
  const path = join(projectRoot, SETTINGS);
  const file = readJsonObject(path);
  if (file.kind !== "object") {
    report.item(SETTINGS, file.kind === "missing" ? "not found" : "unreadable, left alone", false);
    return;
  }
  const { settings, changed } = unregisterHooks(file.value);
  if (!changed) {
    report.item(SETTINGS, "no hook entries", false);
    return;
  }
  if (Object.keys(settings).length === 0) removeFile(path);
  else writeJson(path, settings);
  report.item(SETTINGS, "hook entries removed", true);
}
