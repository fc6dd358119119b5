// The words of `stratum-mcp compile <dir> [--output FILE] [--flow NAME]`, read exactly as the
// reference reads them (docs/reference/runtime.md §21.1): the first word is the directory, whatever it looks like
// (`compile --output x` names the directory `--output`); after it `--output` and `--flow` take the
// following word, in any order, the last one wins; every other word is ignored, as is an option
// with no word after it. An empty directory word is the same as none.
import type { CompileRequest } from "./run-compile";

export const MCP_COMPILE_USAGE = "Usage: stratum-mcp compile <tasks_dir> [--output <file>] [--flow <name>]";

/** The request, or null when no directory was given (print the usage line, exit 1). */
export function parseMcpCompileWords(words: readonly string[]): CompileRequest | null {
  const dir = words[0] ?? "";
  if (dir === "") return null;
  let output: string | null = null;
  let flow = "tasks";
  let i = 1;
  while (i < words.length) {
    const word = words[i];
    const next = words[i + 1];
    if (word === "--output" && next !== undefined) {
      output = next;
      i += 2;
    } else if (word === "--flow" && next !== undefined) {
      flow = next;
      i += 2;
    } else {
      i += 1;
    }
  }
  return { dir, output, flow };
}
