// `stratumc ui`, once its options are parsed (docs/guides/ui.md): composes the Node host over
// $STRATUM_HOME, binds the page's server, prints the address with the token, and serves until
// SIGINT or SIGTERM. In the shipped CLI this module is the bundle dist/ui.cjs, which carries the
// page's files (STRATUMC_UI_PAGE, defined by scripts/build.mjs); from the sources, tests pass them.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import type { Worker } from "node:worker_threads";
import { composeHostLazily, type HostOptions } from "../host/index";
import { randomToken, UiAuth } from "./auth";
import { type FlowReader, inPlaceReader, workerReader } from "./flow-reader";
import { FlowSource } from "./flow-source";
import { launchNotify, notifyAddresses, refuseNotifyOptions } from "./notify/start-notify";
import { readerData } from "./reader-start";
import { createUiHandler, type PageAssets } from "./server";
import { UsersFileError } from "./users-file";
import { UsersSource } from "./users-source";

export { addUserCommand } from "./users-add-command";

declare const STRATUMC_UI_PAGE: PageAssets | undefined;

export interface UiOptions {
  readonly port: number;
  readonly host: string;
  readonly token?: string;
  /** The named reviewers' file or directory (users-file.ts); else STRATUMC_UI_USERS; else the single token. */
  readonly users?: string;
  readonly open: boolean;
  /** Webhooks told of each gate that starts waiting (docs/guides/ui-notify.md); default STRATUM_NOTIFY. */
  readonly notify?: readonly string[];
  /** The page's address in those notifications' links; default the bound address. */
  readonly publicUrl?: string;
  /** The most attempts per notification. */
  readonly notifyAttempts?: number;
  /** The reader worker the command started for this store before loading the server (load-ui.ts). */
  readonly reader?: Worker;
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
  const users = usersOf(options, env);
  if (users !== null && options.token !== undefined) {
    return "--users signs each person in with their own token: leave out --token";
  }
  if (!isLoopback(options.host) && users === null && (token === undefined || token === "")) {
    return `--host ${options.host} makes the page reachable from other machines: give it an explicit --token (or STRATUMC_UI_TOKEN) that you share on purpose, or --users`;
  }
  if (token !== undefined && token !== "" && token.length < 16) {
    return "the token must be at least 16 characters long";
  }
  return refuseNotifyOptions(notifyAddresses(options.notify, env), options.publicUrl);
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
  const usersAt = usersOf(options, host.env);
  let people: UsersSource | null = null;
  try {
    people = usersAt === null ? null : new UsersSource(resolve(host.cwd, usersAt), logError);
  } catch (e) {
    void options.reader?.terminate();
    if (!(e instanceof UsersFileError)) throw e;
    output.err(`stratumc ui: ${e.message}\n`);
    return 2;
  }
  // Bundled (dist/ui.cjs), flows are read in a worker beside it (flow-reader.ts); from the sources,
  // in place. Started first (by the command, before it loaded this bundle): loading its bundle
  // (~200 ms) overlaps composing the host and binding the port, and a fresh server's first page
  // asks it for a flow soon after the address is printed.
  if (typeof STRATUMC_UI_PAGE === "undefined") void options.reader?.terminate();
  const reader: FlowReader | undefined =
    typeof STRATUMC_UI_PAGE === "undefined"
      ? undefined
      : workerReader(join(__dirname, "ui-reader.cjs"), readerData(host), options.reader);
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
    reader?.close();
    return 2;
  }
  const port = (server.address() as AddressInfo).port;
  const handler = createUiHandler({
    flowHost,
    auth: new UiAuth(people ?? token),
    assets,
    hosts: isLoopback(options.host) ? new Set(loopbackHosts(port)) : null,
    watchDir: flowHost.watchDir,
    logError,
    ...(reader === undefined ? {} : { reader }),
  });
  server.on("request", handler.listener);
  server.on("close", () => handler.close());
  const shown = isLoopback(options.host)
    ? "127.0.0.1"
    : options.host.includes(":")
      ? `[${options.host}]`
      : options.host;
  // With --users nobody's token is printed: each person has the address add-user printed for them.
  const url =
    people === null
      ? `http://${shown}:${port}/?token=${encodeURIComponent(token)}`
      : `http://${shown}:${port}/`;
  if (people !== null) {
    const count = people.current().people.length;
    output.err(
      `stratumc ui: ${count} ${count === 1 ? "person" : "people"} of ${usersAt} sign in, each with the address add-user printed for them\n`,
    );
  }
  const stopNotify = launchNotify(
    flowHost,
    () => reader ?? inPlaceReader(new FlowSource(flowHost), flowHost),
    {
      ...options,
      addresses: notifyAddresses(options.notify, host.env),
      defaultBase: `http://${shown}:${port}/`,
    },
    logError,
    (line) => output.err(`stratumc ui: ${line}\n`),
  );
  return new Promise<number>((resolve) => {
    // A terminal's Ctrl-C reaches node twice when bin/stratumc.cjs started it from the snapshot
    // (the launcher passes its own copy on). The handlers stay for the rest of the process, which
    // ends once the server is closed, so a repeated signal is ignored rather than ending the
    // process by default mid-stop (and with status 130 instead of 0).
    let stopping = false;
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      stopNotify();
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

function usersOf(options: UiOptions, env: HostOptions["env"]): string | null {
  const users = options.users ?? env.STRATUMC_UI_USERS;
  return users === undefined || users === "" ? null : users;
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
