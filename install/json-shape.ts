// The shapes install relies on in the JSON files it edits: a value of the wrong
// type where install reads or writes is never replaced or dropped; the command stops with the file,
// the JSON path, what it found and what it expected, and nothing is written anywhere. Claude Code
// skips a settings file with an invalid `hooks` value entirely, so a registration next to one would
// not run: the whole `hooks` tree is checked, not only our events.
import { InstallError, isJsonObject, type JsonObject, NOTHING_CHANGED, own } from "./files";
import { HOOK_EVENTS } from "./hook-scripts";

export type JsonPath = readonly (string | number)[];

/** `hooks.SessionStart[0].hooks`, `projects["/home/u/p"].mcpServers`. */
function formatPath(path: JsonPath): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out === "" ? "the top level" : out;
}

/** What a JSON value is, for messages: `an array`, `a string ("x")`, `the number 2`, `missing`. */
function describeValue(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") {
    const shown =
      value.length > 40 ? `${JSON.stringify(value.slice(0, 40)).slice(0, -1)}…"` : JSON.stringify(value);
    return `a string (${shown})`;
  }
  if (typeof value === "number") return `the number ${value}`;
  return String(value);
}

/** The error for `value` at `path` of the file `shown`, which should be `expected`. */
export function wrongType(shown: string, path: JsonPath, value: unknown, expected: string): InstallError {
  return new InstallError(
    `${shown}: ${formatPath(path)} is ${describeValue(value)}, expected ${expected}. ${NOTHING_CHANGED}`,
  );
}

/** `value[key]` when it is an object, `{}` when absent; anything else is a wrongType error. */
export function objectAt(
  value: JsonObject,
  path: JsonPath,
  shown: string,
  expected = "an object",
): JsonObject {
  const key = path[path.length - 1];
  const field = typeof key === "string" ? own(value, key) : undefined;
  if (field === undefined) return {};
  if (!isJsonObject(field)) throw wrongType(shown, path, field, expected);
  return field;
}

const MATCHER_GROUP = 'an object (a matcher group: {"matcher": …, "hooks": [ … ]})';

/**
 * Checks Claude Code's shape of `settings.hooks` (absent is fine): an object of event → array of
 * matcher groups `{matcher?: string, hooks: [{command?: string, …}]}`. A group without `hooks` (the
 * old format) passes only when it runs one of our scripts for its event, since install removes it;
 * anyone else's would be lost.
 */
export function checkHooksShape(
  settings: JsonObject,
  shown: string,
  runsOurScript: (command: string, script: string) => boolean,
): void {
  const hooks = own(settings, "hooks");
  if (hooks === undefined) return;
  if (!isJsonObject(hooks))
    throw wrongType(shown, ["hooks"], hooks, "an object (event name → matcher groups)");
  for (const [event, groups] of Object.entries(hooks)) {
    const at: JsonPath = ["hooks", event];
    if (!Array.isArray(groups)) throw wrongType(shown, at, groups, "an array (of matcher groups)");
    const script = HOOK_EVENTS.find((e) => e.event === event)?.script;
    groups.forEach((group: unknown, i) => {
      if (!isJsonObject(group)) throw wrongType(shown, [...at, i], group, MATCHER_GROUP);
      const matcher = own(group, "matcher");
      if (matcher !== undefined && typeof matcher !== "string")
        throw wrongType(shown, [...at, i, "matcher"], matcher, "a string");
      const inner = own(group, "hooks");
      if (inner === undefined) {
        const command = own(group, "command");
        const ours = script !== undefined && typeof command === "string" && runsOurScript(command, script);
        if (!ours) throw wrongType(shown, [...at, i, "hooks"], inner, "an array (of hooks)");
        return;
      }
      if (!Array.isArray(inner)) throw wrongType(shown, [...at, i, "hooks"], inner, "an array (of hooks)");
      inner.forEach((hook: unknown, j) => {
        if (!isJsonObject(hook))
          throw wrongType(
            shown,
            [...at, i, "hooks", j],
            hook,
            'an object (a hook: {"type": …, "command": …})',
          );
        const command = own(hook, "command");
        if (command !== undefined && typeof command !== "string")
          throw wrongType(shown, [...at, i, "hooks", j, "command"], command, "a string");
      });
    });
  }
}
