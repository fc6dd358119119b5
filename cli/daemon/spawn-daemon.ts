// Starts the daemon in the background, detached from the caller's terminal and process group; it
// outlives the caller and exits by itself after its idle timeout.
// node:child_process is loaded only here, when needed: the client (which imports this) starts faster
// without it.
import { daemonScript } from "./locate";

export function spawnDaemon(env: NodeJS.ProcessEnv): number | undefined {
  const { spawn } = process.getBuiltinModule("node:child_process");
  const child = spawn(process.execPath, [daemonScript()], { detached: true, stdio: "ignore", env, cwd: "/" });
  child.on("error", () => undefined);
  child.unref();
  return child.pid;
}
