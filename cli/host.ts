// What the commands need from the process besides output: the working directory, the environment,
// whether the output streams are terminals, and standard input. Injected so that commands run in
// process in tests.
import type { Output } from "./output";

export interface CliHost {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** All of standard input, as bytes. */
  readStdin(): Promise<Uint8Array>;
}

export function processHost(): CliHost {
  return {
    cwd: process.cwd(),
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    async readStdin() {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin)
        chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
      return Buffer.concat(chunks);
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
