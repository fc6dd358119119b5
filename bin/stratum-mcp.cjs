#!/bin/sh
":" /*
# The reference-compatible binary name; it shares the stratumc entry point. Both a shell script
# and CommonJS, like stratumc.cjs. Run as a program (the MCP configuration `install` writes, npx,
# node_modules/.bin), /bin/sh reads these lines: the server lives for weeks, and glibc gives each
# thread that mallocs an arena of its own and never hands it back (V8's compiler threads take
# ~10 MB that way in the first thousand flows), so two arenas keep its memory flat
# ("The MCP server's memory" in the history of docs/performance.md); a value the caller set wins. glibc reads it
# before node starts, so only a launcher can set it. Then node runs this file, exec'd so that the
# client's signals reach the server. Run as `node bin/stratum-mcp.cjs`, node skips the shebang and
# these lines are one comment.
MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}
export MALLOC_ARENA_MAX
exec node "$0" "$@"
*/ + "";
process.env.STRATUMC_PROG = "stratum-mcp";
require("../dist/stratumc.cjs");
