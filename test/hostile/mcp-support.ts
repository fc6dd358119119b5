// What the hostile MCP tests share besides the raw stdio session (test/mcp/support/raw-session.ts):
// a sandbox for the server, the texts that must never reach a client, a tiny spec.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { SessionPlace } from "../mcp/support/raw-session";

/**
 * A temporary root with the server's working directory (`cwd`, the folder `work`) and store
 * (`home`) inside; a RawSession runs in it with `new RawSession(box)`.
 */
export interface Sandbox extends SessionPlace {
  readonly root: string;
  /** Every file and directory under the root, relative to it, sorted. */
  tree(): string[];
  dispose(): void;
}

export function sandbox(prefix: string): Sandbox {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const cwd = join(root, "work");
  const home = join(root, "home");
  mkdirSync(join(cwd, "sub"), { recursive: true });
  mkdirSync(home);
  return {
    root,
    cwd,
    home,
    tree: () => listTree(root).map((p) => relative(root, p)),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

function listTree(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    out.push(path);
    if (entry.isDirectory()) out.push(...listTree(path));
  }
  return out.sort();
}

/** Text that must never reach a client: a zod issue dump, a stack trace, an internal error. */
const LEAK_PATTERNS: readonly RegExp[] = [
  /ZodError/,
  /Invalid input/,
  /"code":\s*"invalid_type"/,
  /\\"code\\":\s*\\"invalid_type\\"/,
  /\n\s+at .+\(.*:\d+:\d+\)/,
  /\\n\s+at .+:\d+:\d+/,
  /-32603/,
];

export function leaks(text: string): string[] {
  return LEAK_PATTERNS.filter((p) => p.test(text)).map(String);
}

/** A spec with one flow of one infer step (output {answer: string}), named `flow`. */
export function tinySpec(flow = "main"): string {
  return [
    'version: "0.1"',
    "contracts:",
    "  Out:",
    "    answer: {type: string}",
    "functions:",
    "  answer:",
    "    mode: infer",
    "    intent: Answer.",
    "    input: {}",
    "    output: Out",
    "flows:",
    `  ${flow}:`,
    "    input: {}",
    "    output: Out",
    "    steps:",
    "      - id: s1",
    "        function: answer",
    "        inputs: {}",
    "",
  ].join("\n");
}

/** A valid one-step spec (flow `main`, step `draft` returning `Out {v: string}`), ending with that step. */
export const WORK_SPEC = `version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  work:
    mode: infer
    intent: "Do the work"
    input: {}
    output: Out
flows:
  main:
    input: {}
    steps:
      - id: draft
        function: work
        inputs: {}
`;
