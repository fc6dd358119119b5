// `stratumc replay FILE [--server COMMAND]`: sends the calls of a counterexample saved by
// `fuzz --save` again, in order, and says whether its finding shows again. Without --server the
// calls go to the engine in process, set up exactly as the fuzzer's; with --server they go to an
// MCP server started from that command line (any stratum-mcp implementation) over stdio.
// Exit 0: reproduced; 1: not reproduced; 2: usage error, unreadable or malformed file, a server
// that fails; 4: the server sent no typed events (docs/guides/fuzzing.md), so reproduction cannot be judged.
import { resolve } from "node:path";
import { type Command, Option } from "commander";
import type { ReplayResult, Transport } from "../../fuzzer/index";
import { readRegularFile } from "../../host/index";
import type { FlowEvent } from "../../interpreter/index";
import { ioReason } from "../check/read-spec";
import type { CommandContext } from "../command-context";
import { EXIT_ERRORS, EXIT_OK, EXIT_UNJUDGED, UsageError } from "../exit-codes";
import { styleFor } from "../format/style";
import { type CounterexampleFile, parseCounterexampleFile } from "../fuzz/counterexample-file";
import { loadFuzzer } from "../fuzzer-loader";
import { VERSION } from "../version";
import { loadMcpClient } from "./load-client";
import { formatReplayJson, formatReplayPretty } from "./render";

const FORMATS = ["pretty", "json"] as const;

interface ReplayFlags {
  readonly server?: string;
  readonly format: (typeof FORMATS)[number];
}

export function registerReplay(program: Command, ctx: CommandContext): void {
  program
    .command("replay")
    .description("replay a counterexample saved by `fuzz --save` and say whether its finding shows again")
    .argument("<file>", "a counterexample file written by `stratumc fuzz --save DIR`")
    .option("--server <command>", "send the calls to this MCP server (a command line, e.g. stratum-mcp)")
    .addOption(new Option("--format <format>", "output format").choices(FORMATS).default("pretty"))
    .addHelpText(
      "after",
      "\nExit codes: 0 reproduced, 1 not reproduced, 2 usage error or unreadable file, 4 cannot judge (the server sends no typed events).",
    )
    .action(async (file: string, flags: ReplayFlags) => {
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
  const expect = { code: saved.code, flow: saved.flow, step: saved.step };
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
    // The events are the server's own data, passed on as it sent them.
    const transport: Transport = async (tool, args) => {
      const answer = await session.call(tool, args);
      return { response: answer.response, events: answer.events as readonly FlowEvent[] | null };
    };
    return await run(transport, `through '${server}'`);
  } finally {
    await session.close();
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
