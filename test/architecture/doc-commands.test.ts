// The commands the user-facing pages give to copy run where the README installs stratumc: in a
// project (`npm install --save-dev`), whose binaries are in node_modules/.bin and not on PATH. So
// every shell line of a fenced block in README.md and docs/guides/ that starts `stratumc` or
// `stratum-mcp` starts them through `npx` (the README says once that a global install drops it),
// and an editor or MCP client configuration runs them through `npx --no-install`.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "./cruise";

const PAGES = [
  "README.md",
  ...readdirSync(join(REPO, "docs/guides"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/guides/${f}`),
];

/** A shell line that runs stratumc or stratum-mcp bare: after an optional `$ ` prompt and `VAR=value` words. */
const BARE = /^(?:\$ )?(?:[A-Z_][A-Z0-9_]*=(?:'[^']*'|"[^"]*"|\S+) +)*(stratumc|stratum-mcp)(?:\s|$)/;
/** What a program prints about itself (`stratumc ui: http://…`), not a command. */
const OUTPUT = /^(?:stratumc|stratum-mcp)(?: [a-z]+)?: /;
/** A configuration that names the program as the command to start (JSON, TOML, Lua). */
const CONFIGURED =
  /(?:"command"\s*:\s*|command\s*=\s*|serverPath"\s*:\s*|cmd\s*=\s*\{\s*)"(stratumc|stratum-mcp)"/;

/** `page:line: text` of every bare command in the fenced blocks of `text`. */
function bareCommands(page: string, text: string): string[] {
  const found: string[] = [];
  let fence: string | null = null;
  text.split("\n").forEach((line, i) => {
    if (line.startsWith("```")) {
      fence = fence === null ? line.slice(3).trim() : null;
      return;
    }
    if (fence === null) return;
    const shell = ["", "sh", "bash", "console", "shell"].includes(fence);
    if ((shell && BARE.test(line) && !OUTPUT.test(line)) || CONFIGURED.test(line))
      found.push(`${page}:${i + 1}: ${line.trim()}`);
  });
  return found;
}

describe("commands in the docs", () => {
  it("run stratumc and stratum-mcp through npx, as a project install needs", () => {
    const found = PAGES.flatMap((page) => bareCommands(page, readFileSync(join(REPO, page), "utf8")));
    expect(found).toEqual([]);
  });

  it("finds a bare command and a bare configured command, not npx or program output", () => {
    const text = [
      "```sh",
      "stratumc check",
      "$ STRATUM_STORE='x y' stratum-mcp --http 127.0.0.1:1",
      "npx stratumc ui",
      "stratumc ui: http://127.0.0.1:7777/",
      "```",
      "```json",
      '{"mcpServers": {"stratum": {"command": "stratum-mcp"}}}',
      '{"mcpServers": {"stratum": {"command": "npx", "args": ["--no-install", "stratum-mcp"]}}}',
      "```",
      "stratumc check (prose, not a block)",
    ].join("\n");
    expect(bareCommands("p", text)).toEqual([
      "p:2: stratumc check",
      "p:3: $ STRATUM_STORE='x y' stratum-mcp --http 127.0.0.1:1",
      'p:8: {"mcpServers": {"stratum": {"command": "stratum-mcp"}}}',
    ]);
  });
});
