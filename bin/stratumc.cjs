#!/usr/bin/env node
"use strict";
require("../dist/stratumc.cjs");
