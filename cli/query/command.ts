// `stratumc query flows | flow <id> | gates` and the same under `stratum-mcp` (runtime.md §21.1):
// read every stored flow that restores, in file-name order, and print JSON with 2-space
// indentation (Python `json.dumps(…, indent=2)` layout, as the flow files). Finished, killed and
// exhausted flows are listed too: they are kept (DIV-KEEP-FINISHED). Missing or extra arguments
// are commander usage errors (exit 2).
import type { Command } from "commander";
import {
  flowDetail,
  flowNotFoundError,
  flowSummary,
  pendingGate,
} from "../../interpreter/query/flow-queries";
import { loadAllFlows, loadFlow } from "../../interpreter/query/load-runs";
import { encodeWire } from "../../interpreter/wire/encode";
import type { Wire } from "../../interpreter/wire/wire";
import { EXIT_ERRORS } from "../exit-codes";
import { loadFlowHost } from "../flow-host-loader";
import type { CommandContext } from "../host";

export function registerQuery(program: Command, ctx: CommandContext): void {
  const query = program
    .command("query")
    .description("print the flows kept in $STRATUM_HOME/flows as JSON (flows, flow <id>, gates)");

  query
    .command("flows")
    .description("every flow: id, name, status, current step, progress")
    .action(async () => {
      const { store, restore } = await loadFlowHost(ctx.host);
      const flows = await loadAllFlows(store, restore);
      printJson(
        ctx,
        flows.map((f) => flowSummary(f.run)),
      );
    });

  query
    .command("flow")
    .description("one flow in detail: outputs, trace records, rounds, the ordered steps")
    .argument("<flow_id>", "the flow's id")
    .action(async (flowId: string) => {
      const { store, restore } = await loadFlowHost(ctx.host);
      const loaded = await loadFlow(store, flowId, restore);
      if (loaded === null) ctx.setExitCode(EXIT_ERRORS);
      printJson(ctx, loaded === null ? flowNotFoundError(flowId) : flowDetail(loaded.run));
    });

  query
    .command("gates")
    .description("every unfinished flow waiting at a gate, with the gate's routes and timeout")
    .action(async () => {
      const { store, restore } = await loadFlowHost(ctx.host);
      const flows = await loadAllFlows(store, restore);
      printJson(
        ctx,
        flows.flatMap((f) => pendingGate(f.run) ?? []),
      );
    });
}

function printJson(ctx: CommandContext, value: Wire): void {
  ctx.io.out(`${encodeWire(value, { indent: 2 })}\n`);
}
