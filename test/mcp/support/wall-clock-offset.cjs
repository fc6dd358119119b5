// Test-only preload for the MCP end-to-end suite (`node --require <this> bin/stratum-mcp.cjs`):
// moves the server's wall clock (Date.now, what the gate timeouts read) forward by the number of
// milliseconds written in the file named by STRATUMC_TEST_WALL_OFFSET_FILE, read on every call so
// the test can age a gate while the server runs (the scenarios' `age_gate` hook). The monotonic
// clock (performance.now) is left alone, as ManualClock.advanceWall does in-process.
"use strict";
const { readFileSync } = require("node:fs");

const file = process.env.STRATUMC_TEST_WALL_OFFSET_FILE;
if (file) {
  const realNow = Date.now;
  const offsetMs = () => {
    try {
      const n = Number(readFileSync(file, "utf8"));
      return Number.isFinite(n) ? n : 0;
    } catch {
      return 0;
    }
  };
  Date.now = () => realNow() + offsetMs();
}
