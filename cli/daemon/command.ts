// `stratumc daemon start|stop|status`: the resident checker that makes `stratumc check` start about
// as fast as `node -e 0` when STRATUMC_DAEMON=1 (docs/design/performance.md). `start` waits until the
// daemon answers; all three print one line.
import type { Command } from "commander";
import { EXIT_ERRORS, EXIT_OK } from "../exit-codes";
import type { CommandContext } from "../host";
import { askDaemon } from "./control";
import { ensurePrivateDir, socketDir, socketPath } from "./socket-path";
import { spawnDaemon } from "./spawn-daemon";

const START_WAIT_MS = 10_000;

export function registerDaemon(program: Command, ctx: CommandContext): void {
  const daemon = program
    .command("daemon")
    .description("run `check` in a resident process for fast starts (used when STRATUMC_DAEMON=1)");
  daemon
    .command("start")
    .description("start the daemon of this build (it exits after 15 idle minutes)")
    .action(() => start(ctx));
  daemon
    .command("stop")
    .description("stop the daemon of this build")
    .action(async () => {
      const info = await askDaemon(pathOf(ctx), "stop");
      ctx.io.out(
        info === null ? "stratumc daemon: not running\n" : `stratumc daemon: stopped (pid ${info.pid})\n`,
      );
    });
  daemon
    .command("status")
    .description("tell whether the daemon of this build runs (exit 0) or not (exit 1)")
    .action(async () => {
      const path = pathOf(ctx);
      const info = await askDaemon(path, "ping");
      if (info === null) {
        ctx.io.out("stratumc daemon: not running\n");
        ctx.setExitCode(EXIT_ERRORS);
        return;
      }
      ctx.io.out(`stratumc daemon: running (pid ${info.pid}, socket ${path})\n`);
    });
}

function pathOf(ctx: CommandContext): string {
  return socketPath(socketDir(ctx.host.env));
}

async function start(ctx: CommandContext): Promise<void> {
  const dir = socketDir(ctx.host.env);
  const problem = ensurePrivateDir(dir);
  if (problem !== null) {
    ctx.io.err(`stratumc daemon: not started: ${problem}\n`);
    ctx.setExitCode(EXIT_ERRORS);
    return;
  }
  const path = socketPath(dir);
  const running = await askDaemon(path, "ping");
  if (running !== null) {
    ctx.io.out(`stratumc daemon: already running (pid ${running.pid})\n`);
    return;
  }
  spawnDaemon({ ...process.env, ...ctx.host.env });
  const deadline = Date.now() + START_WAIT_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const info = await askDaemon(path, "ping", 500);
    if (info !== null) {
      ctx.io.out(`stratumc daemon: started (pid ${info.pid}, socket ${path})\n`);
      ctx.setExitCode(EXIT_OK);
      return;
    }
  }
  ctx.io.err("stratumc daemon: did not answer in time\n");
  ctx.setExitCode(EXIT_ERRORS);
}
