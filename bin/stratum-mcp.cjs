#!/usr/bin/env node
"use strict";
// The reference-compatible binary name; it shares the stratumc entry point.
process.env.STRATUMC_PROG = "stratum-mcp";
require("../dist/stratumc.cjs");
