// `stratumc ui`, once its options are parsed (docs/guides/ui.md): composes the Node host over
// $STRATUM_HOME, binds the page's server, prints the address with the token, and serves until
// SIGINT or SIGTERM. In the shipped CLI this module is the bundle dist/ui.cjs, which carries the
// page's files (STRATUMC_UI_PAGE, defined by scripts/build.mjs); from the sources, tests pass them.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { composeHostLazily, type HostOptions } from "../host/index";
import { randomToken, UiAuth } from "./auth";
import { workerReader } from "./flow-reader";
import { createUiHandler, type PageAssets } from "./server";

declare const STRATUMC_UI_PAGE: PageAssets | undefined;

export interface UiOptions {
  readonly port: number;
  readonly host: string;
  readonly token?: string;
  readonly open: boolean;
}

export interface UiOutput {
  out(text: string): void;
  err(text: string): void;
}

/** Where the server listens, once it does; `stop` closes it (the promise of runUi then resolves). */
export interface RunningUi {
  readonly url: string;
  stop(): void;
}

/** Why the options cannot be served (exit 2), or null. */
export function refuseUiOptions(options: UiOptions, env: HostOptions["env"]): string | null {
  const token = options.token ?? env.STRATUMC_UI_TOKEN;
  if (!isLoopback(options.host) && (token === undefined || token === "")) {
    return `--host ${options.host} makes the page reachable from other machines: give it an explicit --token (or STRATUMC_UI_TOKEN) that you share on purpose`;
  }
  if (token !== undefined && token !== "" && token.length < 16) {
    return "the token must be at least 16 characters long";
  }
  return null;
}

/** Serves until `stop` or a signal; resolves with the exit code. `onListening` hears the address. */
export async function runUi(
  host: Pick<HostOptions, "cwd" | "env">,
  options: UiOptions,
  output: UiOutput,
  assets: PageAssets | undefined = typeof STRATUMC_UI_PAGE === "undefined" ? undefined : STRATUMC_UI_PAGE,
  onListening?: (running: RunningUi) => void,
): Promise<number> {
  if (assets === undefined) throw new Error("stratumc ui: the page was not built (run npm run build)");
  const configured = options.token ?? host.env.STRATUMC_UI_TOKEN;
  const token = configured === undefined || configured === "" ? randomToken() : configured;
  const logError = (message: string): void => output.err(`stratumc ui: ${message}\n`);
  const flowHost = await composeHostLazily({ cwd: host.cwd, env: host.env, logError });
  // The handler comes once the port is known (--port 0): the Host check names it.
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, options.host, () => resolve());
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const reason =
      code === "EADDRINUSE"
        ? `port ${options.port} is in use: choose another with --port (--port 0 takes any free port)`
        : code === "EADDRNOTAVAIL" || code === "ENOTFOUND"
          ? `${options.host} is not an address of this machine`
          : e instanceof Error
            ? e.message
            : String(e);
    output.err(`stratumc ui: cannot listen on ${options.host}:${options.port}: ${reason}\n`);
    return 2;
  }
  const port = (server.address() as AddressInfo).port;
  const handler = createUiHandler({
    flowHost,
    auth: new UiAuth(token),
    assets,
    hosts: isLoopback(options.host) ? new Set(loopbackHosts(port)) : null,
    watchDir: flowHost.watchDir,
    logError,
    // Bundled (dist/ui.cjs), flows are read in a worker beside it (flow-reader.ts); from the sources, in place.
    ...(typeof STRATUMC_UI_PAGE === "undefined"
      ? {}
      : {
          reader: workerReader(join(__dirname, "ui-reader.cjs"), {
            cwd: host.cwd,
            env: { ...host.env },
          }),
        }),
  });
  server.on("request", handler.listener);
  server.on("close", () => handler.close());
  const shown = isLoopback(options.host)
    ? "127.0.0.1"
    : options.host.includes(":")
      ? `[${options.host}]`
      : options.host;
  const url = `http://${shown}:${port}/?token=${encodeURIComponent(token)}`;
  return new Promise<number>((resolve) => {
    // A terminal's Ctrl-C reaches node twice when bin/stratumc.cjs started it from the snapshot
    // (the launcher passes its own copy on). The handlers stay for the rest of the process, which
    // ends once the server is closed, so a repeated signal is ignored rather than ending the
    // process by default mid-stop (and with status 130 instead of 0).
    let stopping = false;
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      server.close(() => resolve(0));
      server.closeAllConnections();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    // Printed once a signal stops the server cleanly: whoever reads the address may stop it at once.
    output.out(`stratumc ui: ${url}\n`);
    output.err(`stratumc ui: the flows of ${flowHost.where}; Ctrl-C stops the server\n`);
    if (options.open) openBrowser(url, logError);
    onListening?.({ url, stop });
  });
}

function isLoopback(host: string): boolean {
  return host === "127.0.0.1" || host === "localhost" || host === "::1" || host === "[::1]";
}

function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

/** The system's way of opening a URL; a failure is a warning, the server goes on. */
function openBrowser(url: string, logError: (message: string) => void): void {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", '""', url]]
        : ["xdg-open", [url]];
  try {
    const child = spawn(command, args as string[], { detached: true, stdio: "ignore" });
    child.on("error", (e) => logError(`could not open a browser (${e.message}); open the address above`));
    child.unref();
  } catch (e) {
    logError(
      `could not open a browser (${e instanceof Error ? e.message : String(e)}); open the address above`,
    );
  }
}
