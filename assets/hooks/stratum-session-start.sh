#!/usr/bin/env bash
# Stratum hook for Claude Code's SessionStart event (installed by `stratumc install`).
# Prints the project's memory file <cwd>/.claude/memory/MEMORY.md, if it exists, so that Claude
# Code adds it to the new session's context. <cwd> is the event's `cwd` field (default ".").
# The event JSON arrives on standard input and is read with node. This hook never fails: any
# problem (no node, bad JSON, unreadable file) ends it silently with exit 0.
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
try {
  if (fs.statSync(memory).isFile()) process.stdout.write(fs.readFileSync(memory));
} catch {}
' 2>/dev/null
exit 0
