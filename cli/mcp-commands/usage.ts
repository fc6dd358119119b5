// The usage text of `stratum-mcp -h | --help | help` (docs/reference/runtime.md §21.1): one line per command of
// the reference-compatible command line, then the stratumc commands this binary also accepts.
// The first line keeps commander's wording, which `stratumc --help` prints too.

const COMMANDS: readonly (readonly [string, string])[] = [
  ["(no command)", "run the MCP server on standard input and output (for Claude Code)"],
  ["--http HOST:PORT", "run it over Streamable HTTP at http://HOST:PORT/mcp (a team server)"],
  ["install", "register the MCP server, skills and hooks with Claude Code"],
  ["uninstall [--keep-skills]", "remove what install added"],
  ["validate <file-or-yaml>", "validate a .stratum.yaml spec (a file, or the YAML text itself)"],
  ["compile <dir> [--output FILE] [--flow NAME]", "compile spec-kit task files (*.md) into a spec"],
  ["query flows [--all] | flow <id> | gates", "print the flows kept in $STRATUM_HOME/flows as JSON"],
  [
    "gate approve|reject|revise <flow_id> <step_id> [--note TEXT] [--resolved-by human|agent|system] [--next]",
    "resolve the gate a flow waits at",
  ],
  ["-h, --help, help", "print this help"],
];

/** The docs/reference/runtime.md §21.1 command words; every other registered command is listed as a stratumc extra. */
export const REFERENCE_COMMANDS: ReadonlySet<string> = new Set([
  "install",
  "uninstall",
  "validate",
  "compile",
  "query",
  "gate",
]);

const COLUMN = 46;

export function mcpUsage(extraCommands: readonly string[]): string {
  const lines = ["Usage: stratum-mcp [options] [command]", "", "Commands:"];
  for (const [form, what] of COMMANDS) {
    // A form wider than the column keeps its description on the same line, two spaces after it.
    lines.push(`  ${form.padEnd(COLUMN - 2)}  ${what}`);
  }
  if (extraCommands.length > 0) {
    lines.push("", `Also accepted, as in stratumc (stratumc <command> --help): ${extraCommands.join(", ")}`);
  }
  return `${lines.join("\n")}\n`;
}
