// The `eval` subcommand: argument handling only; the work is in single.ts and batch.ts.
import { createReadStream, openSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Command } from "commander";
import { MAX_VALUE_DEPTH } from "../../interpreter/index";
import { PyDict, type PyValue, parseJson } from "../../stdlib/index";
import { UsageError } from "../exit-codes";
import type { Output } from "../output";
import { runBatch } from "./batch";
import { bindNames, jsonKind, pathSource } from "./case";
import { fileAccessFor } from "./root";
import { evalSingle } from "./single";

interface EvalOptions {
  readonly bindings?: string;
  readonly input?: string;
  readonly steps?: string;
  readonly root?: string;
  readonly batch?: string;
}

/** Registers `eval`; `setExitCode` receives the command's exit code. */
export function registerEval(program: Command, io: Output, setExitCode: (code: number) => void): void {
  program
    .command("eval")
    .description("type-check and evaluate one expression; print the repr of its value")
    .argument("[expression]", "the expression (omit with --batch)")
    .option(
      "--bindings <json>",
      "JSON object: names bound in the expression (result/item objects become namespaces)",
    )
    .option("--input <json>", "JSON object: the flow inputs read by $.input.<name>")
    .option("--steps <json>", "JSON object: step id → stored output, read by $.steps.<id>.output")
    .option("--root <dir>", "working root of file_exists/file_contains (default: current directory)")
    .option("--batch <file>", "evaluate one JSON case per line of FILE.jsonl ('-' = stdin)")
    .addHelpText("after", "\nAn expression that starts with '-' goes after '--': stratumc eval -- '-x + 1'")
    .action(async (expression: string | undefined, options: EvalOptions) => {
      if (options.batch !== undefined) {
        if (expression !== undefined) throw new UsageError("give either an expression or --batch, not both");
        for (const flag of ["bindings", "input", "steps"] as const) {
          if (options[flag] !== undefined) {
            throw new UsageError(`--${flag} cannot be combined with --batch (give it per line)`);
          }
        }
        const files = fileAccessFor(options.root);
        const output = coalescedWriter(io.out);
        await runBatch(batchLines(options.batch), files, output.write);
        output.flush();
        setExitCode(0);
        return;
      }
      if (expression === undefined) throw new UsageError("missing expression (or --batch FILE)");
      const c = {
        text: expression,
        names: bindNames(objectOption("--bindings", options.bindings)),
        paths: pathSource(objectOption("--input", options.input), objectOption("--steps", options.steps)),
      };
      setExitCode(evalSingle(c, fileAccessFor(options.root), io));
    });
}

function objectOption(flag: string, text: string | undefined): PyDict | null {
  if (text === undefined) return null;
  let value: PyValue;
  try {
    value = parseJson(text, { maxDepth: MAX_VALUE_DEPTH });
  } catch (e) {
    throw new UsageError(`${flag}: invalid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!(value instanceof PyDict))
    throw new UsageError(`${flag}: expected a JSON object, got ${jsonKind(value)}`);
  return value;
}

function batchLines(file: string): AsyncIterable<string> {
  let input: NodeJS.ReadableStream;
  if (file === "-") input = process.stdin;
  else {
    let fd: number;
    try {
      fd = openSync(file, "r");
    } catch (e) {
      throw new UsageError(`--batch: cannot open ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    }
    input = createReadStream("", { fd });
  }
  return createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
}

/**
 * Collects result lines and writes them once the lines already read are processed (setImmediate
 * runs when the loop next waits for input): one write per input chunk instead of one per line,
 * while a client that sends one line at a time still gets each answer at once.
 */
function coalescedWriter(write: (text: string) => void): { write(text: string): void; flush(): void } {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    write(pending.join(""));
    pending = [];
  };
  return {
    write(text) {
      pending.push(text);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
