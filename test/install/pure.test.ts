// Properties of the pure parts: the CLAUDE.md block and the settings hook entries round-trip
// (install then uninstall gives back what was there), and registering twice changes nothing.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  addExecutionModel,
  EXECUTION_MODEL_MARKER,
  hasExecutionModel,
  removeExecutionModel,
} from "../../install/claude-md";
import type { JsonObject } from "../../install/files";
import { HOOK_EVENTS } from "../../install/hook-scripts";
import {
  hookCommand,
  registerHooks,
  runsScript,
  shellQuote,
  unregisterHooks,
} from "../../install/settings-hooks";

const COMMANDS = new Map(
  HOOK_EVENTS.map(({ event, script }) => [event, hookCommand(`/home/u/.stratum/hooks/${script}`)]),
);

const text = fc.string({ unit: fc.constantFrom("a", " ", "\n", "\r\n", "\t", "#", "é", "## Stratum") });

describe("CLAUDE.md", () => {
  test("add then remove restores the text up to trailing whitespace", () => {
    fc.assert(
      fc.property(text, (original) => {
        fc.pre(!hasExecutionModel(original));
        const added = addExecutionModel(original);
        expect(hasExecutionModel(added)).toBe(true);
        const eol = original.includes("\r\n") ? "\r\n" : "\n";
        const kept = original.trimEnd();
        expect(removeExecutionModel(added)).toBe(kept === "" ? null : `${kept}${eol}`);
      }),
    );
  });

  test("a marker line is found with surrounding spaces, not inside other text", () => {
    expect(hasExecutionModel(`x\n  ${EXECUTION_MODEL_MARKER} \r\ny`)).toBe(true);
    expect(hasExecutionModel(`x ${EXECUTION_MODEL_MARKER}`)).toBe(false);
    expect(hasExecutionModel(`${EXECUTION_MODEL_MARKER}s`)).toBe(false);
  });
});

// Settings with hooks of other tools (never ours), under our events and others.
const foreignHook = fc.record({
  type: fc.constant("command"),
  command: fc.constantFrom("echo a", "bash other.sh", "make lint"),
});
const entry = fc.record({
  matcher: fc.constantFrom("", "Bash", "Edit|Write"),
  hooks: fc.array(foreignHook, { minLength: 1, maxLength: 2 }),
});
const events = fc.dictionary(
  fc.constantFrom("SessionStart", "Stop", "PostToolUseFailure", "PreToolUse", "Notification"),
  fc.array(entry, { minLength: 1, maxLength: 3 }),
  { minKeys: 1 }, // an empty `hooks` object is dropped by uninstall (docs/reference/runtime.md §22.2)
);
const settings: fc.Arbitrary<JsonObject> = fc.oneof(
  fc.record({ model: fc.constantFrom("opus", "sonnet") }, { requiredKeys: [] }),
  fc.record({ hooks: events, model: fc.constant("opus") }, { requiredKeys: ["hooks"] }),
);

describe("settings hook entries", () => {
  test("register then unregister gives back the settings", () => {
    fc.assert(
      fc.property(settings, (s) => {
        const registered = registerHooks(s, COMMANDS);
        expect(registered.changed).toBe(true);
        const again = registerHooks(registered.settings, COMMANDS);
        expect(again).toEqual({ settings: registered.settings, changed: false });
        expect(unregisterHooks(registered.settings)).toEqual({ settings: s, changed: true });
        expect(unregisterHooks(s)).toEqual({ settings: s, changed: false });
      }),
    );
  });

  test("our commands are recognised in every form, others are not", () => {
    const s = "stratum-session-stop.sh";
    expect(runsScript(`bash /a/b/${s}`, s)).toBe(true);
    expect(runsScript(`bash '/a b/${s}'`, s)).toBe(true);
    expect(runsScript(`bash .claude/hooks/${s}`, s)).toBe(true);
    expect(runsScript(`bash tools/${s}`, s)).toBe(false);
    expect(runsScript(`sh /a/${s}`, s)).toBe(false);
    expect(runsScript(`bash /a/${s}.bak`, s)).toBe(false);
  });

  test("shell quoting", () => {
    expect(shellQuote("/home/u/.stratum/hooks/x.sh")).toBe("/home/u/.stratum/hooks/x.sh");
    expect(shellQuote("/home/o'neil/x.sh")).toBe("'/home/o'\\''neil/x.sh'");
    expect(
      runsScript(`bash ${shellQuote("/home/o'neil/stratum-session-stop.sh")}`, "stratum-session-stop.sh"),
    ).toBe(true);
  });
});
