// The project side of the hooks (docs/reference/runtime.md §22.1 step 6, docs/reference/runtime.md §22.2 step 4): the copies
// `.claude/hooks/<script>` and their entries in `.claude/settings.json` (shared, "$CLAUDE_PROJECT_DIR"
// commands) — a script outside the project would go to `.claude/settings.local.json` (personal,
// absolute path), see hookRegistration. Entries of ours in the other file (the absolute
// $STRATUM_HOME paths earlier versions and the reference wrote into settings.json) are removed,
// so every hook runs once and no shared file names a path of this machine. The file install
// registers in must have Claude Code's `hooks` shape (json-shape.ts); in the other file, and on
// uninstall, values of another shape are not ours and are kept exactly.
import { join } from "node:path";
import type { Changes } from "./changes";
import { type JsonObject, jsonText, parseJsonObject } from "./files";
import { bundledHookScript, HOOK_EVENTS, PROJECT_HOOKS_DIR, planHookScript } from "./hook-scripts";
import { checkHooksShape } from "./json-shape";
import type { Report } from "./report";
import {
  hookRegistration,
  LOCAL_SETTINGS,
  registerHooks,
  runsScript,
  SHARED_SETTINGS,
  unregisterHooks,
} from "./settings-hooks";

/** Plans the three copies in the project, one line each. */
export function planProjectScripts(projectRoot: string, changes: Changes, report: Report): void {
  for (const { script } of HOOK_EVENTS) {
    const rel = `${PROJECT_HOOKS_DIR}/${script}`;
    const outcome = planHookScript(changes, join(projectRoot, rel), bundledHookScript(script));
    report.item(rel, outcome, outcome !== "up to date");
  }
}

export function planRegisterHooks(projectRoot: string, changes: Changes, report: Report): void {
  const byFile = new Map<string, Map<string, string>>();
  for (const { event, script } of HOOK_EVENTS) {
    const { file, command } = hookRegistration(join(projectRoot, PROJECT_HOOKS_DIR, script), projectRoot);
    const commands = byFile.get(file) ?? new Map<string, string>();
    commands.set(event, command);
    byFile.set(file, commands);
  }
  for (const rel of [SHARED_SETTINGS, LOCAL_SETTINGS]) {
    const path = join(projectRoot, rel);
    const bytes = changes.read(path);
    const commands = byFile.get(rel);
    if (commands !== undefined) {
      const settings = bytes === null ? {} : parseJsonObject(bytes, rel);
      checkHooksShape(settings, rel, runsScript); // a wrong type stops install: nothing is replaced
      const { settings: next, changed } = registerHooks(settings, commands);
      if (changed) changes.set(path, jsonText(next));
      report.item(rel, changed ? "hooks registered" : "hooks already registered", changed);
    } else if (bytes !== null) {
      const { settings: next, changed } = unregisterHooks(parseJsonObject(bytes, rel));
      if (!changed) continue;
      changes.set(path, emptied(next) ? null : jsonText(next));
      report.item(rel, "old hook entries removed", true);
    }
  }
}

/** Plans the removal of the copies and of every entry of ours in both settings files. */
export function planUnregisterHooks(projectRoot: string, changes: Changes, report: Report): void {
  for (const { script } of HOOK_EVENTS) {
    const rel = `${PROJECT_HOOKS_DIR}/${script}`;
    if (changes.read(join(projectRoot, rel)) === null) continue;
    changes.set(join(projectRoot, rel), null);
    report.item(rel, "removed", true);
  }
  for (const rel of [SHARED_SETTINGS, LOCAL_SETTINGS]) {
    const path = join(projectRoot, rel);
    const bytes = changes.read(path);
    if (bytes === null) continue;
    const { settings, changed } = unregisterHooks(parseJsonObject(bytes, rel));
    if (!changed) {
      if (rel === SHARED_SETTINGS) report.item(rel, "no hook entries", false);
      continue;
    }
    changes.set(path, emptied(settings) ? null : jsonText(settings));
    report.item(rel, "hook entries removed", true);
  }
}

function emptied(settings: JsonObject): boolean {
  return Object.keys(settings).length === 0;
}
