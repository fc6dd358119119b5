// `stratumc query flows [--all] | flow <id> | gates` and the same under `stratum-mcp` (runtime.md
// docs/reference/runtime.md §21.1): read every stored flow that restores, in file-name order, and print JSON with 2-space
// indentation (Python `json.dumps(…, indent=2)` layout, as the flow files). Each output is the
// reference's published shape (stratum-mcp/contracts: query-flows.v1, flow-state.v1,
// query-gates.v1; test/cli/flows/reference-schemas.test.ts validates them).
// `query flows` lists what the reference lists: the flows in progress (the reference deletes
// finished and exhausted flows; we keep them, DIV-KEEP-FINISHED). `--all` adds the finished ones,
// with the statuses `complete`, `killed` and `exhausted` — the last is outside query-flows.v1's
// enum, so `--all` output need not validate against it. `query flow <id>` answers for any kept
// flow. An unknown id prints the NOT_FOUND object on one line (`json.dumps` without indent, as the
// reference), exit 1. Missing or extra arguments are commander usage errors (exit 2).
// A flow file that cannot be decoded is never left out silently: `query flows` and
// `query gates` print `warning: corrupt flow file <path>: <problem>` on standard error for each
// (the default listing stays valid against query-flows.v1, whose status enum has no `corrupt`);
// `query flows --all` also lists it with status `corrupt` and a `problem`; `query flow <id>` on it
// prints `{"error": {"code": "flow_corrupt", "message": …}}`, exit 1.
import type { Command } from "commander";
import { composeHostLazily } from "../../host/index";
import type { Wire } from "../../interpreter/index";
import {
  type CorruptFlow,
  corruptFlowSummary,
  encodeWire,
  FlowCorruptError,
  flowDetail,
  flowNotFoundError,
  flowSummary,
  listedByDefault,
  loadAllFlows,
  loadFlow,
  pendingGate,
} from "../../interpreter/index";
import type { CommandContext } from "../command-context";
import { EXIT_ERRORS } from "../exit-codes";
import { STORE_OPTION_FLAGS, STORE_OPTION_HELP, withStoreOption } from "../store-location";

export function registerQuery(program: Command, ctx: CommandContext): void {
  const query = program
    .command("query")
    .description("print the flows kept in the flow store as JSON (flows, flow <id>, gates)");

  query
    .command("flows")
    .description(
      "the flows in progress (with --all every kept flow): id, name, status, current step, progress",
    )
    .option("--all", "also list finished flows (status complete, killed or exhausted)")
    .option(STORE_OPTION_FLAGS, STORE_OPTION_HELP)
    .action(async (flags: { readonly all?: boolean; readonly store?: string }) => {
      const { store, restore } = await composeHostLazily(withStoreOption(ctx.host, flags.store));
      const corrupt: CorruptFlow[] = [];
      const flows = await loadAllFlows(store, restore, (c) => corrupt.push(warnCorrupt(ctx, c)));
      const listed = flows.filter((f) => flags.all === true || listedByDefault(f.run));
      const summaries = listed.map((f) => ({ id: f.flowId, summary: flowSummary(f.run) }));
      if (flags.all === true) {
        for (const c of corrupt)
          summaries.push({ id: c.flowId, summary: corruptFlowSummary(c.flowId, c.file, c.problem) });
        summaries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)); // file-name order, as listed
      }
      printJson(
        ctx,
        summaries.map((s) => s.summary),
      );
    });

  query
    .command("flow")
    .description("one kept flow in detail: outputs, trace records, rounds, the ordered steps")
    .argument("<flow_id>", "the flow's id")
    .option(STORE_OPTION_FLAGS, STORE_OPTION_HELP)
    .action(async (flowId: string, flags: { readonly store?: string }) => {
      const { store, restore } = await composeHostLazily(withStoreOption(ctx.host, flags.store));
      let loaded: Awaited<ReturnType<typeof loadFlow>>;
      try {
        loaded = await loadFlow(store, flowId, restore);
      } catch (e) {
        if (!(e instanceof FlowCorruptError)) throw e;
        ctx.io.out(`${encodeWire({ error: { code: "flow_corrupt", message: e.message } })}\n`);
        ctx.setExitCode(EXIT_ERRORS);
        return;
      }
      if (loaded !== null) {
        printJson(ctx, flowDetail(loaded.run));
        return;
      }
      ctx.io.out(`${encodeWire(flowNotFoundError(flowId))}\n`);
      ctx.setExitCode(EXIT_ERRORS);
    });

  query
    .command("gates")
    .description("every unfinished flow waiting at a gate, with the gate's routes and timeout")
    .option(STORE_OPTION_FLAGS, STORE_OPTION_HELP)
    .action(async (flags: { readonly store?: string }) => {
      const { store, restore } = await composeHostLazily(withStoreOption(ctx.host, flags.store));
      const flows = await loadAllFlows(store, restore, (c) => warnCorrupt(ctx, c));
      printJson(
        ctx,
        flows.flatMap((f) => pendingGate(f.run) ?? []),
      );
    });
}

function warnCorrupt(ctx: CommandContext, corrupt: CorruptFlow): CorruptFlow {
  ctx.io.err(`warning: corrupt flow file ${corrupt.file}: ${corrupt.problem}\n`);
  return corrupt;
}

function printJson(ctx: CommandContext, value: Wire): void {
  ctx.io.out(`${encodeWire(value, { indent: 2 })}\n`);
}
