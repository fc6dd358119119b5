// For the browser tests of `stratumc ui`: Debian's Chromium driven by playwright-core (no browser
// download: .ci/run installs the `chromium` package), and the built `stratumc ui` started as users
// start it, on a port of its own choosing, its address read from the line it prints.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { ensureBundle, REPO } from "../cli/run-cli";

export { launchChromium } from "./chromium";

export interface RunningUi {
  /** The address printed, with the token. */
  readonly url: string;
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  readonly token: string;
  stderr(): string;
  stop(): Promise<number | null>;
}

/** `stratumc ui --port 0` (the checkout's, or `bin`) over STRATUM_HOME=`home`; resolves once it printed its address. */
export async function startUi(
  home: string,
  args: readonly string[] = [],
  env: Record<string, string> = {},
  bin: string = join(REPO, "bin/stratumc.cjs"),
): Promise<RunningUi> {
  ensureBundle();
  const child: ChildProcess = spawn(process.execPath, [bin, "ui", "--port", "0", ...args], {
    env: { PATH: process.env.PATH ?? "", STRATUM_HOME: home, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const m = /stratumc ui: (http:\/\/\S+)\n/.exec(out);
      if (m?.[1] !== undefined) resolve(m[1]);
    });
    void exited.then((code) => reject(new Error(`stratumc ui exited with ${code}: ${err}`)));
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get("token") ?? "",
    stderr: () => err,
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
  };
}
