// The hook entries of `.claude/settings.json` (runtime.md §22.1 step 6, §22.2 step 4), as pure
// functions over the parsed object: the input is never modified, the answer says whether anything
// changed. Claude Code's format: `hooks.<Event>` is a list of `{matcher, hooks: [{type, command}]}`.
import { basename, isAbsolute } from "node:path";
import { isJsonObject, type JsonObject, own } from "./files";
import { HOOK_EVENTS } from "./hook-scripts";

export interface SettingsChange {
  readonly settings: JsonObject;
  readonly changed: boolean;
}

/** The command registered for a script: `bash <absolute path>`, the path quoted only when needed. */
export function hookCommand(scriptPath: string): string {
  return `bash ${shellQuote(scriptPath)}`;
}

/**
 * Registers `commands` (event → command). Per event: old-format entries (no `hooks` key) are
 * dropped; inner hooks running one of our scripts by another command (the old relative
 * `bash .claude/hooks/<script>`, or an absolute path elsewhere, e.g. a moved STRATUM_HOME) are
 * dropped, and entries this leaves empty; then our entry is appended unless some entry already has
 * the command.
 */
export function registerHooks(settings: JsonObject, commands: ReadonlyMap<string, string>): SettingsChange {
  const hooks = isJsonObject(own(settings, "hooks")) ? (own(settings, "hooks") as JsonObject) : {};
  let changed = !isJsonObject(own(settings, "hooks"));
  const next: JsonObject = { ...hooks };
  for (const { event, script } of HOOK_EVENTS) {
    const command = commands.get(event);
    if (command === undefined) continue;
    const before = own(hooks, event);
    const cleaned = cleanEntries(before, (c) => c !== command && runsScript(c, script));
    const entries = [...cleaned.entries];
    const present = entries.some((entry) => innerHooks(entry).some((h) => commandOf(h) === command));
    if (!present) entries.push({ matcher: "", hooks: [{ type: "command", command }] });
    if (cleaned.changed || !present || !Array.isArray(before)) {
      next[event] = entries;
      changed = true;
    }
  }
  return changed ? { settings: { ...settings, hooks: next }, changed } : { settings, changed };
}

/**
 * Removes every entry of ours: inner hooks running one of our scripts (any path), old-format
 * entries; then entries left empty, events left empty, and an empty `hooks` object.
 */
export function unregisterHooks(settings: JsonObject): SettingsChange {
  const hooks = own(settings, "hooks");
  if (!isJsonObject(hooks)) return { settings, changed: false };
  const next: JsonObject = { ...hooks };
  let changed = false;
  for (const { event, script } of HOOK_EVENTS) {
    const before = own(hooks, event);
    if (!Array.isArray(before)) continue;
    const cleaned = cleanEntries(before, (c) => runsScript(c, script));
    if (!cleaned.changed) continue;
    changed = true;
    if (cleaned.entries.length === 0) delete next[event];
    else next[event] = cleaned.entries;
  }
  if (!changed) return { settings, changed };
  const rest: JsonObject = { ...settings };
  if (Object.keys(next).length === 0) delete rest.hooks;
  else rest.hooks = next;
  return { settings: rest, changed };
}

/** Drops old-format entries and inner hooks whose command `drop` selects; entries so emptied go too. */
function cleanEntries(
  value: unknown,
  drop: (command: string) => boolean,
): { entries: readonly unknown[]; changed: boolean } {
  if (!Array.isArray(value)) return { entries: [], changed: false };
  const entries: unknown[] = [];
  let changed = false;
  for (const entry of value) {
    if (!isJsonObject(entry) || !Object.hasOwn(entry, "hooks")) {
      changed = true; // the old format (no `hooks` list): Claude Code rejects it
      continue;
    }
    const inner = own(entry, "hooks");
    if (!Array.isArray(inner)) {
      entries.push(entry);
      continue;
    }
    const kept = inner.filter((h) => {
      const command = commandOf(h);
      return command === undefined || !drop(command);
    });
    if (kept.length === inner.length) entries.push(entry);
    else {
      changed = true;
      if (kept.length > 0) entries.push({ ...entry, hooks: kept });
    }
  }
  return { entries, changed };
}

function innerHooks(entry: unknown): readonly unknown[] {
  if (!isJsonObject(entry)) return [];
  const inner = own(entry, "hooks");
  return Array.isArray(inner) ? inner : [];
}

function commandOf(hook: unknown): string | undefined {
  if (!isJsonObject(hook)) return undefined;
  const command = own(hook, "command");
  return typeof command === "string" ? command : undefined;
}

/**
 * Whether `command` runs our `script`: `bash .claude/hooks/<script>` (the old per-project form) or
 * `bash <absolute path ending in /<script>>`, quoted or not. The script names are ours alone.
 */
export function runsScript(command: string, script: string): boolean {
  const match = /^bash\s+(.+?)\s*$/.exec(command);
  if (match === null) return false;
  const path = shellUnquote(match[1] ?? "");
  if (path === `.claude/hooks/${script}`) return true;
  return isAbsolute(path) && basename(path) === script;
}

/** POSIX shell quoting: the word as is when it is safe, else in single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

function shellUnquote(word: string): string {
  if (word.length >= 2 && word.startsWith('"') && word.endsWith('"')) return word.slice(1, -1);
  if (word.startsWith("'")) return word.replaceAll(`'\\''`, "'").replace(/^'|'$/g, "");
  return word;
}
