// `stratumc replay FILE [--server COMMAND]`: sends the calls of a counterexample saved by
// `fuzz --save` again, in order, and says whether its finding shows again. Without --server the
// calls go to the engine in process, set up exactly as the fuzzer's; with --server they go to an
// MCP server started from that command line (any stratum-mcp implementation) over stdio.
// Exit 0: reproduced; 1: not reproduced; 2: usage error, unreadable or malformed file, a server
// that fails; 4: the server sent no typed events (docs/guides/fuzzing.md), so reproduction cannot be judged.
// `stratumc replay --flow ID --spec FILE` / `--all --spec FILE` replays stored flows against an
// edited spec instead (flow-replay.ts).
import { resolve } from "node:path";
import { type Command, Option } from "commander";
import type { ReplayResult, Transport } from "../../fuzzer/index";
import { readRegularFile } from "../../host/index";
import { ioReason } from "../check/read-spec";
import type { CommandContext } from "../command-context";
import { EXIT_ERRORS, EXIT_OK, EXIT_UNJUDGED, UsageError } from "../exit-codes";
import { styleFor } from "../format/style";
import { type CounterexampleFile, parseCounterexampleFile } from "../fuzz/counterexample-file";
import { loadFuzzer } from "../fuzzer-loader";
import { STORE_OPTION_FLAGS, STORE_OPTION_HELP } from "../store-location";
import { VERSION } from "../version";
import { type FlowReplayOptions, replayStoredFlows } from "./flow-replay";
import { loadMcpClient } from "./load-client";
import { formatReplayJson, formatReplayPretty } from "./render";

const FORMATS = ["pretty", "json"] as const;

interface ReplayFlags {
  readonly server?: string;
  readonly format: (typeof FORMATS)[number];
  readonly flow?: string;
  readonly spec?: string;
  readonly all?: boolean;
  readonly store?: string;
}

export function registerReplay(program: Command, ctx: CommandContext): void {
  program
    .command("replay")
    .description(
      "replay a counterexample saved by `fuzz --save` and say whether its finding shows again; or replay stored flows against an edited spec (--flow/--all with --spec)",
    )
    .argument("[file]", "a counterexample file written by `stratumc fuzz --save DIR`")
    .option("--server <command>", "send the calls to this MCP server (a command line, e.g. stratum-mcp)")
    .option("--flow <id>", "replay this stored flow against --spec")
    .option("--all", "replay every stored root flow whose flow name is a flow of --spec")
    .option("--spec <file>", "the edited spec to replay stored flows against")
    .option(STORE_OPTION_FLAGS, STORE_OPTION_HELP)
    .addOption(new Option("--format <format>", "output format").choices(FORMATS).default("pretty"))
    .addHelpText(
      "after",
      `
Exit codes with FILE: 0 reproduced, 1 not reproduced, 2 usage error or unreadable file, 4 cannot judge (the server sends no typed events).
Exit codes with --spec: 0 no divergence, 1 a flow diverges, 2 usage error, a spec with errors, an unknown or corrupt flow, 4 cannot judge (a flow's fan-out or sub-flow steps cannot be replayed).`,
    )
    .action(async (file: string | undefined, flags: ReplayFlags) => {
      if (flags.spec !== undefined || flags.flow !== undefined || flags.all === true) {
        await replayStoredFlows(storedFlowOptions(file, flags), ctx);
        return;
      }
      if (file === undefined)
        throw new UsageError("replay: give a counterexample FILE, or --flow ID (or --all) with --spec FILE");
      if (flags.store !== undefined) throw new UsageError("--store: only with --flow or --all");
      const saved = readCounterexample(file, ctx.host.cwd);
      const result = await replay(saved, flags.server, ctx);
      ctx.io.out(
        flags.format === "json"
          ? formatReplayJson(saved, result)
          : formatReplayPretty(saved, result, styleFor(ctx.host.env, ctx.host.stdoutIsTTY)),
      );
      ctx.setExitCode(!result.judged ? EXIT_UNJUDGED : result.reproduced ? EXIT_OK : EXIT_ERRORS);
    });
}

/** The options of a stored-flow replay; a usage error for a mix with the counterexample form. */
function storedFlowOptions(file: string | undefined, flags: ReplayFlags): FlowReplayOptions {
  if (file !== undefined)
    throw new UsageError("replay: give either a counterexample FILE or --flow/--all with --spec, not both");
  if (flags.server !== undefined) throw new UsageError("--server: only with a counterexample FILE");
  if (flags.spec === undefined) throw new UsageError("--flow and --all need --spec FILE (the edited spec)");
  if (flags.flow !== undefined && flags.all === true)
    throw new UsageError("give --flow ID or --all, not both");
  if (flags.flow === undefined && flags.all !== true) throw new UsageError("--spec needs --flow ID or --all");
  return {
    spec: flags.spec,
    flow: flags.flow ?? null,
    all: flags.all === true,
    store: flags.store,
    format: flags.format,
  };
}

function readCounterexample(file: string, cwd: string): CounterexampleFile {
  let text: string;
  try {
    text = readRegularFile(resolve(cwd, file)).toString("utf8");
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${ioReason(e)}`);
  }
  const parsed = parseCounterexampleFile(text);
  if (!parsed.ok) throw new UsageError(`${file}: not a saved counterexample: ${parsed.reason}`);
  return parsed.value;
}

async function replay(
  saved: CounterexampleFile,
  server: string | undefined,
  ctx: CommandContext,
): Promise<ReplayResult> {
  const fuzzer = await loadFuzzer();
  // Checked by parseCounterexampleFile: the first call is stratum_plan with the spec text.
  const spec = String(saved.calls[0]?.arguments.spec);
  const expect = { code: saved.code, flow: saved.flow, step: saved.step, line: saved.line };
  const run = async (transport: Transport, where: string) => {
    try {
      return await fuzzer.replayCounterexample(spec, saved.calls, transport, expect);
    } catch (e) {
      // A recording that uses a flow id before any response named it, or a server that fails.
      throw new UsageError(`the replay ${where} failed: ${messageOf(e)}`);
    }
  };
  if (server === undefined) return run(fuzzer.fuzzTransport(spec), "in process");
  const { connectServer } = await loadMcpClient();
  const session = await connectServer({
    commandLine: server,
    cwd: ctx.host.cwd,
    env: ctx.host.env,
    clientVersion: VERSION,
  }).catch((e: unknown) => {
    throw new UsageError(`cannot start the MCP server '${server}': ${messageOf(e)}`);
  });
  try {
    // The events are the server's own data, passed on as it sent them (an output as a value again).
    const transport: Transport = async (tool, args) => {
      const answer = await session.call(tool, args);
      return {
        response: answer.response,
        events:
          answer.events === null || answer.events === undefined ? null : fuzzer.eventsFromJson(answer.events),
      };
    };
    return await run(transport, `through '${server}'`);
  } finally {
    await session.close();
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
