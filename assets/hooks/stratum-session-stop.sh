#!/usr/bin/env bash
# Stratum hook for Claude Code's Stop event (installed by `stratumc install`).
# When the event's `last_assistant_message` is not empty and the project's memory file
# <cwd>/.claude/memory/MEMORY.md exists, appends a session note with the UTC time and the first
# 400 characters of that message. <cwd> is the event's `cwd` field (default "."); the memory file
# is never created here. The event JSON arrives on standard input and is read with node. This hook
# never fails: any problem ends it silently with exit 0.
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
const message = event.last_assistant_message;
if (typeof message === "string" && message !== "") {
  // Characters, not UTF-16 units: a note never ends in half a surrogate pair.
  const excerpt = Array.from(message).slice(0, 400).join("");
  const now = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  try {
    if (fs.statSync(memory).isFile())
      fs.appendFileSync(memory, "\n## Session note " + now + "\n\n" + excerpt + "\n");
  } catch {}
}
' 2>/dev/null
exit 0
