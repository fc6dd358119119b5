// One `check` / `validate` run inside the daemon: the check-only program (cli/check-commands.ts)
// with the client's arguments, working directory, environment, terminal flags and standard input,
// its output recorded in order, exactly as the local CLI would write it.
import { CHECK_COMMANDS } from "../check-commands";
import type { CliHost } from "../host";
import type { Output } from "../output";
import { runCliWith } from "../run-cli";
import type { CheckRequest, Chunk } from "./protocol";

export async function serveCheck(request: CheckRequest): Promise<{ chunks: Chunk[]; code: number }> {
  const chunks: Chunk[] = [];
  const io: Output = {
    out: (text) => void chunks.push([1, text]),
    err: (text) => void chunks.push([2, text]),
  };
  const stdin = request.stdin === null ? new Uint8Array(0) : Buffer.from(request.stdin, "base64");
  const host: CliHost = {
    cwd: request.cwd,
    env: request.env,
    stdoutIsTTY: request.stdoutIsTTY,
    stderrIsTTY: request.stderrIsTTY,
    readStdin: async () => stdin,
  };
  const programName = request.env.STRATUMC_PROG ?? "stratumc";
  const code = await runCliWith(CHECK_COMMANDS, request.argv, io, programName, host);
  return { chunks, code };
}
