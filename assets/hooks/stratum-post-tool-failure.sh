#!/usr/bin/env bash
# Stratum hook for Claude Code's PostToolUseFailure event (installed by `stratumc install`).
# Unless the failure is an interrupt (`is_interrupt: true`), and when the event's `error` is not
# empty and the project's memory file <cwd>/.claude/memory/MEMORY.md exists, appends a note with
# the UTC time, the tool's name (default "unknown") and the first 300 characters of the error.
# <cwd> is the event's `cwd` field (default "."); the memory file is never created here. The event
# JSON arrives on standard input and is read with node. This hook never fails: any problem ends it
# silently with exit 0.
node -e '
const fs = require("node:fs");
const path = require("node:path");
let event = {};
try {
  const parsed = JSON.parse(fs.readFileSync(0, "utf8"));
  if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) event = parsed;
} catch {}
const cwd = typeof event.cwd === "string" && event.cwd !== "" ? event.cwd : ".";
const memory = path.join(cwd, ".claude", "memory", "MEMORY.md");
const error = event.error;
if (event.is_interrupt !== true && typeof error === "string" && error !== "") {
  const tool = typeof event.tool_name === "string" && event.tool_name !== "" ? event.tool_name : "unknown";
  // Characters, not UTF-16 units: a note never ends in half a surrogate pair.
  const excerpt = Array.from(error).slice(0, 300).join("");
  const now = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  try {
    if (fs.statSync(memory).isFile())
      fs.appendFileSync(memory, "\n## Tool failure " + now + "\n\nTool: " + tool + "\nError: " + excerpt + "\n");
  } catch {}
}
' 2>/dev/null
exit 0
