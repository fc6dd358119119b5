// `stratumc ui [--port N] [--host ADDRESS] [--token T | --users DIR|FILE] [--open] [--notify URL …]`: a local web page
// of the flows in $STRATUM_HOME, for the people who watch them and resolve their gates
// (docs/guides/ui.md); `stratumc ui add-user NAME` makes a named reviewer's token
// (docs/guides/ui-people.md). The server is loaded only here (load-ui.ts).
import { type Command, InvalidArgumentError } from "commander";
import { loadUi, startUiReader } from "../../ui/index";
import type { CommandContext } from "../command-context";
import { EXIT_USAGE } from "../exit-codes";
import { STORE_OPTION_FLAGS, STORE_OPTION_HELP, withStoreOption } from "../store-location";

export const DEFAULT_UI_PORT = 7777;

interface UiFlags {
  readonly port: number;
  readonly host: string;
  readonly token?: string;
  readonly users?: string;
  readonly open?: boolean;
  readonly store?: string;
  readonly notify?: string[];
  readonly publicUrl?: string;
  readonly notifyAttempts?: number;
}

export function registerUi(program: Command, ctx: CommandContext): void {
  const ui = program
    .command("ui")
    .description(
      "serve a web page of the flows in $STRATUM_HOME: where each stands, its audit, and its gates to resolve",
    )
    .option("--port <n>", `the port (0: any free port)`, parsePort, DEFAULT_UI_PORT)
    .option(
      "--host <address>",
      "the address to listen on (other than loopback only with --token)",
      "127.0.0.1",
    )
    .option("--token <token>", "the access token (default: STRATUMC_UI_TOKEN, else a new random one)")
    .option(
      "--users <dir|file>",
      "named reviewers: a directory made by `ui add-user`, or a YAML/JSON users file (default: STRATUMC_UI_USERS)",
    )
    .option("--open", "open the page in the default browser")
    .option(
      "--notify <url>",
      "POST to this webhook (Slack or any) when a gate starts waiting; repeatable (default: STRATUM_NOTIFY)",
      (url: string, urls: string[] = []) => [...urls, url],
    )
    .option("--public-url <url>", "the page's address in notification links (default: the bound address)")
    .option("--notify-attempts <n>", "the most attempts per notification (default 5)", parseAttempts)
    .option(STORE_OPTION_FLAGS, STORE_OPTION_HELP)
    .action(async (flags: UiFlags) => {
      const host = withStoreOption(ctx.host, flags.store);
      // Its start and its first page overlap loading the server (a fresh server's page waits for it).
      const reader = startUiReader(host);
      const { refuseUiOptions, runUi } = await loadUi();
      const options = {
        port: flags.port,
        host: flags.host,
        open: flags.open === true,
        ...(flags.token === undefined ? {} : { token: flags.token }),
        ...(flags.notify === undefined ? {} : { notify: flags.notify }),
        ...(flags.publicUrl === undefined ? {} : { publicUrl: flags.publicUrl }),
        ...(flags.notifyAttempts === undefined ? {} : { notifyAttempts: flags.notifyAttempts }),
        ...(flags.users === undefined ? {} : { users: flags.users }),
        ...(reader === undefined ? {} : { reader }),
      };
      const refused = refuseUiOptions(options, ctx.host.env);
      if (refused !== null) {
        void reader?.terminate();
        ctx.io.err(`${ctx.programName} ui: ${refused}\n`);
        ctx.setExitCode(EXIT_USAGE);
        return;
      }
      ctx.setExitCode(await runUi(host, options, ctx.io));
    });
  ui.command("add-user")
    .description(
      "add a named reviewer to --users: prints their sign-in address with a new token, once; keeps only its sha256",
    )
    .argument("<name>", "the person's name (letters, digits, '.', '_', '-')")
    .option("--replace", "give a person who is there a new token")
    .action(async (name: string, own: { readonly replace?: boolean }, command: Command) => {
      // --users, --host and --port are `ui`'s options: given before or after add-user, ui parses them.
      const flags = command.optsWithGlobals<UiFlags>();
      const { addUserCommand } = await loadUi();
      ctx.setExitCode(
        addUserCommand(
          {
            name,
            users: flags.users ?? null,
            replace: own.replace === true,
            host: flags.host,
            port: flags.port === 0 ? DEFAULT_UI_PORT : flags.port,
          },
          ctx.host,
          ctx.io,
        ),
      );
    });
}

function parseAttempts(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 20) throw new InvalidArgumentError("a whole number from 1 to 20");
  return n;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError("a port number from 0 to 65535");
  return port;
}
