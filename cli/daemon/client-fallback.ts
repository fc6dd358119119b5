// The client's way out once it has read standard input and the daemon then failed (or the input is
// too big to send): the local CLI (bin/stratumc.cjs with the daemon off) gets the same arguments
// and the same standard input, so the answer is the local one. Before anything was read, the client
// exits with EXIT_NOT_SERVED instead and the launcher goes on by itself, which is cheaper.
import { launcherScript } from "./locate";

export function runLocally(args: readonly string[], stdinPrefix: Buffer, stdinRest: boolean): void {
  const env = { ...process.env, STRATUMC_DAEMON: "0" };
  // Loaded only on this rare path (see spawn-daemon.ts).
  const { spawn } = process.getBuiltinModule("node:child_process");
  const child = spawn("/bin/sh", [launcherScript(), ...args], { stdio: ["pipe", "inherit", "inherit"], env });
  child.stdin.on("error", () => undefined);
  if (stdinRest) {
    child.stdin.write(stdinPrefix);
    process.stdin.pipe(child.stdin);
  } else {
    child.stdin.end(stdinPrefix);
  }
  child.on("exit", (code, signal) => {
    process.exitCode = code ?? 128 + signalNumber(signal);
  });
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal === "SIGINT" ? 2 : signal === "SIGTERM" ? 15 : signal === "SIGKILL" ? 9 : 1;
}
