// The hook entries of `.claude/settings.json` and `.claude/settings.local.json` (docs/reference/runtime.md §22.1
// step 6, docs/reference/runtime.md §22.2 step 4), as pure functions over the parsed object: the input is never
// modified, the answer says whether anything changed. Claude Code's format: `hooks.<Event>` is a
// list of `{matcher, hooks: [{type, command}]}`; commands run in a shell with CLAUDE_PROJECT_DIR set
// to the project root.
import { basename, isAbsolute, relative, sep } from "node:path";
import { isJsonObject, type JsonObject, own } from "./files";
import { HOOK_EVENTS } from "./hook-scripts";

export interface SettingsChange {
  readonly settings: JsonObject;
  readonly changed: boolean;
}

/** The command for a script anywhere: `bash <absolute path>`, the path quoted only when needed. */
export function hookCommand(scriptPath: string): string {
  return `bash ${shellQuote(scriptPath)}`;
}

export const SHARED_SETTINGS = ".claude/settings.json";
export const LOCAL_SETTINGS = ".claude/settings.local.json";

/**
 * Where a script's hook is registered and with which command: a script inside the project runs as
 * `bash "$CLAUDE_PROJECT_DIR"/<path in the project>` from the shared settings.json, the same for
 * every teammate; a script anywhere else (the home directory, another absolute path of this
 * machine) is personal and goes to settings.local.json with its absolute path.
 */
export function hookRegistration(
  scriptPath: string,
  projectRoot: string,
): { readonly file: string; readonly command: string } {
  const rel = relative(projectRoot, scriptPath);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel))
    return { file: LOCAL_SETTINGS, command: hookCommand(scriptPath) };
  return {
    file: SHARED_SETTINGS,
    command: `bash "$CLAUDE_PROJECT_DIR"/${shellQuote(rel.split(sep).join("/"))}`,
  };
}

/**
 * Registers `commands` (event → command) in settings of the shape checkHooksShape accepts (a
 * `hooks` or event value of another type is an Error, never replaced). Per event: old-format
 * entries of ours (no `hooks` key) are dropped; inner hooks running one of our scripts by another
 * command (the old relative `bash .claude/hooks/<script>`, or an absolute path elsewhere, e.g. a
 * moved STRATUM_HOME) are dropped, and entries this leaves empty; then our entry is appended unless
 * some entry already has the command.
 */
export function registerHooks(settings: JsonObject, commands: ReadonlyMap<string, string>): SettingsChange {
  const found = own(settings, "hooks");
  if (found !== undefined && !isJsonObject(found)) throw new Error("registerHooks: `hooks` is not an object");
  const hooks = found ?? {};
  let changed = found === undefined;
  const next: JsonObject = { ...hooks };
  for (const { event, script } of HOOK_EVENTS) {
    const command = commands.get(event);
    if (command === undefined) continue;
    const before = own(hooks, event);
    if (before !== undefined && !Array.isArray(before))
      throw new Error(`registerHooks: \`hooks.${event}\` is not an array`);
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
 * entries running one; values of any other shape are kept as they are; then entries left empty, events left empty, and an empty `hooks` object.
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

/**
 * Drops inner hooks whose command `drop` selects, and old-format entries (a hook without a `hooks`
 * list) it selects; entries so emptied go too. Everything else is kept as it is, whatever its type.
 */
function cleanEntries(
  value: unknown,
  drop: (command: string) => boolean,
): { entries: readonly unknown[]; changed: boolean } {
  if (!Array.isArray(value)) return { entries: [], changed: false };
  const entries: unknown[] = [];
  let changed = false;
  for (const entry of value) {
    if (!isJsonObject(entry)) {
      entries.push(entry); // not ours: kept as it is (install refuses it first, json-shape.ts)
      continue;
    }
    if (!Object.hasOwn(entry, "hooks")) {
      // The old format (a hook where a matcher group belongs): ours go, anyone else's stay.
      const command = commandOf(entry);
      if (command !== undefined && drop(command)) changed = true;
      else entries.push(entry);
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
 * Whether `command` runs our `script`: `[bash ]<path>` where the path is `.claude/hooks/<script>`
 * (the reference's old per-project form), `$CLAUDE_PROJECT_DIR/.claude/hooks/<script>` (ours) or an
 * absolute path ending in `/<script>` (the reference's and our earlier form), in any quoting. The
 * script names are ours alone.
 */
export function runsScript(command: string, script: string): boolean {
  const match = /^(?:bash\s+)?(.+)$/.exec(command.trim());
  if (match === null) return false;
  const path = shellWord(match[1] ?? "")?.replace(/^\$\{CLAUDE_PROJECT_DIR\}/, "$CLAUDE_PROJECT_DIR");
  if (path === undefined) return false;
  const local = `.claude/hooks/${script}`;
  if (path === local || path === `./${local}` || path === `$CLAUDE_PROJECT_DIR/${local}`) return true;
  return isAbsolute(path) && basename(path) === script;
}

/** POSIX shell quoting: the word as is when it is safe, else in single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The text of one POSIX shell word without its quoting (`$NAME` stays as written); undefined when
 * the quoting is unbalanced.
 */
function shellWord(word: string): string | undefined {
  let out = "";
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if (c === "'") {
      const end = word.indexOf("'", i + 1);
      if (end < 0) return undefined;
      out += word.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < word.length && word[j] !== '"'; j++) {
        if (word[j] === "\\" && j + 1 < word.length && '"\\$`'.includes(word[j + 1] ?? "")) j++;
        out += word[j];
      }
      if (j >= word.length) return undefined;
      i = j;
    } else if (c === "\\" && i + 1 < word.length) {
      out += word[++i];
    } else if (c !== undefined && /\s/.test(c)) {
      return undefined; // more than one word
    } else out += c;
  }
  return out;
}
