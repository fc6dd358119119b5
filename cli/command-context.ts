// What the commands need from the process besides output: the working directory, the environment,
// whether the output streams are terminals, and standard input. Injected so that commands run in
// process in tests.
import type { Output } from "./output";

export interface CliHost {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /**
   * Standard input, as bytes: all of it, or, with `maxBytes`, reading stops (and standard input is
   * closed) as soon as more than `maxBytes` bytes came in, so a caller can refuse an input over a
   * limit without reading it all.
   */
  readStdin(maxBytes?: number): Promise<Uint8Array>;
}

export function processHost(): CliHost {
  return {
    cwd: process.cwd(),
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    async readStdin(maxBytes = Number.POSITIVE_INFINITY) {
      const chunks: Buffer[] = [];
      let length = 0;
      for await (const chunk of process.stdin) {
        const bytes: Buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
        chunks.push(bytes);
        length += bytes.length;
        if (length > maxBytes) break; // ends the iteration, which destroys the stream
      }
      return Buffer.concat(chunks, length);
    },
  };
}

/** What a subcommand's action gets. */
export interface CommandContext {
  readonly io: Output;
  readonly host: CliHost;
  /** `stratumc`, or `stratum-mcp` for the reference-compatible binary. */
  readonly programName: string;
  setExitCode(code: number): void;
}
