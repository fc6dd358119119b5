// The built `stratumc ui` started for a benchmark: its printed address, and how to stop it.
import { spawn } from "node:child_process";
import { join } from "node:path";

/** The built `stratumc ui --port 0` (then `args`) over `home`; its printed address, and how to stop it. */
export async function startUi(
  repoDir: string,
  home: string,
  args: readonly string[] = [],
): Promise<{ url: string; origin: string; token: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(repoDir, "bin/stratumc.cjs"), "ui", "--port", "0", ...args], {
    env: { ...process.env, STRATUM_HOME: home },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const m = /stratumc ui: (http:\/\/\S+)\n/.exec(out);
      if (m?.[1] !== undefined) resolve(m[1]);
    });
    void exited.then(() => reject(new Error("stratumc ui exited before it printed its address")));
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get("token") ?? "",
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
