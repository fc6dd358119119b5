// `stratumc replay --flow ID --spec FILE` and `replay --all --spec FILE`: replays flows of the flow
// store (--store, else $STRATUM_STORE, else $STRATUM_HOME) against an edited spec and reports where
// it diverges (docs/guides/testing-a-spec.md). The replay itself is the fuzzer's
// (fuzzer/replay-flow/); this file reads the spec and the store and prints.
// Exit 0: no divergence; 1: a flow diverges; 2: usage error, unreadable spec or one with errors,
// unknown or corrupt flow, unreachable store; 4: no divergence found, but a flow could not be
// replayed to its end (the store does not keep the answers of its fan-out steps, or a sub-flow
// step's child flow is missing).
import { resolve } from "node:path";
import type { FlowReplayReport } from "../../fuzzer/index";
import { composeHostLazily, type NodeHost } from "../../host/index";
import { decodeStoredFlow, type FlowState, isSafeFlowId } from "../../interpreter/index";
import { readSpecFile } from "../check/read-spec";
import type { CommandContext } from "../command-context";
import { EXIT_ERRORS, EXIT_OK, EXIT_UNJUDGED, UsageError } from "../exit-codes";
import { styleFor } from "../format/style";
import { loadFuzzer } from "../fuzzer-loader";
import { STORE_ERRORS } from "../run-cli";
import { withStoreOption } from "../store-location";
import { formatFlowReplayJson, formatFlowReplayPretty } from "./render-flow";

export interface FlowReplayOptions {
  readonly spec: string;
  /** One flow id, or null with `all`. */
  readonly flow: string | null;
  readonly all: boolean;
  readonly store: string | undefined;
  readonly format: "pretty" | "json";
}

export async function replayStoredFlows(options: FlowReplayOptions, ctx: CommandContext): Promise<void> {
  const specText = readSpec(options.spec, ctx.host.cwd);
  const fuzzer = await loadFuzzer();
  const target = fuzzer.replayTarget(specText);
  if (target === null) {
    throw new UsageError(
      `${options.spec} has errors; run \`${ctx.programName} check ${options.spec}\` to see them`,
    );
  }
  if (options.flow !== null && !isSafeFlowId(options.flow)) {
    throw new UsageError(`--flow: '${options.flow}' is not a flow id`);
  }
  let states: FlowState[];
  const children = new Map<string, FlowState>();
  try {
    const host = await composeHostLazily(withStoreOption(ctx.host, options.store));
    try {
      states =
        options.flow !== null
          ? [await readState(host, options.flow)]
          : fuzzer.flowsOfSpec(target.spec, await readAll(host, ctx));
      await readChildren(host, states, fuzzer.childFlowIds, children);
    } finally {
      await host.close().catch(() => undefined);
    }
  } catch (e) {
    // Exit 1 means a divergence here: a store that cannot be read is exit 2, never 1.
    if (e instanceof Error && STORE_ERRORS.has(e.name)) throw new UsageError(e.message);
    throw e;
  }
  const reports: FlowReplayReport[] = [];
  for (const state of states) reports.push(await fuzzer.replayFlow(target, state, children));
  ctx.io.out(
    options.format === "json"
      ? formatFlowReplayJson(options.spec, specText, reports)
      : formatFlowReplayPretty(options.spec, specText, reports, styleFor(ctx.host.env, ctx.host.stdoutIsTTY)),
  );
  ctx.setExitCode(
    reports.some((r) => r.divergence !== null)
      ? EXIT_ERRORS
      : reports.some((r) => r.unjudged !== null)
        ? EXIT_UNJUDGED
        : EXIT_OK,
  );
}

function readSpec(file: string, cwd: string): string {
  const read = readSpecFile(resolve(cwd, file));
  if (!read.ok) throw new UsageError(`cannot read ${file}: ${read.reason}`);
  if (read.oversized !== undefined) throw new UsageError(`${file} is larger than a spec may be`);
  return read.text;
}

async function readState(host: NodeHost, flowId: string): Promise<FlowState> {
  const stored = await host.store.read(flowId);
  if (stored === null) throw new UsageError(`no flow '${flowId}' in the store at ${host.where}`);
  const decoded = decodeStoredFlow(stored);
  if (!decoded.ok) throw new UsageError(`flow '${flowId}' is corrupt (${decoded.part}): ${decoded.reason}`);
  return decoded.state;
}

/**
 * The child flows the sub-flow steps of `states` ran, and theirs, into `into`; one that is gone or
 * corrupt is left out (the replay then stops at its step, unjudged, and says why).
 */
async function readChildren(
  host: NodeHost,
  states: readonly FlowState[],
  childIds: (state: FlowState) => string[],
  into: Map<string, FlowState>,
): Promise<void> {
  const pending = states.flatMap(childIds);
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (into.has(id) || !isSafeFlowId(id)) continue;
    const stored = await host.store.read(id);
    if (stored === null) continue;
    const decoded = decodeStoredFlow(stored);
    if (!decoded.ok) continue;
    into.set(id, decoded.state);
    pending.push(...childIds(decoded.state));
  }
}

/** Every stored flow that decodes, in the store's order; corrupt ones are named on stderr. */
async function readAll(host: NodeHost, ctx: CommandContext): Promise<FlowState[]> {
  const states: FlowState[] = [];
  for (const info of await host.store.list()) {
    const stored = await host.store.read(info.flowId);
    if (stored === null) continue; // removed meanwhile
    const decoded = decodeStoredFlow(stored);
    if (decoded.ok) states.push(decoded.state);
    else
      ctx.io.err(
        `warning: corrupt flow ${info.flowId} (${decoded.part}): ${decoded.reason} (not replayed)\n`,
      );
  }
  return states;
}
