// A process that starts one agent with runProcess and then waits for ever: the launch test kills it
// with SIGKILL to see its agent's group end. Arguments: the agent program, its working directory.
import { runProcess } from "../../../host/parallel/agent-process";

const [program, cwd] = process.argv.slice(2);
if (program === undefined || cwd === undefined) throw new Error("usage: agent-parent-child <program> <cwd>");
void runProcess(
  { program, args: [], cwd, env: { PATH: process.env.PATH ?? "" }, input: "" },
  { timeoutMs: 600_000, killGraceMs: 1_000, maxStdoutBytes: 1024, maxStderrBytes: 1024 },
);
setInterval(() => undefined, 1_000);
