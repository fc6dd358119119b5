// `stratumc gate approve|reject|revise <flow_id> <step_id> [--note TEXT] [--resolved-by R] [--by NAME]` and the
// same under `stratum-mcp` (docs/reference/runtime.md §21.1, DIV-CLI-GATE). The flow is loaded from disk and
// checked here (unknown → NOT_FOUND, finished or another step → conflict, not a gate →
// not_a_gate_step with its mode); then the engine resolves it exactly as stratum_gate_resolve —
// dispatch, policy loop, persistence under the store's lock and revision check — so a server that
// holds the flow in memory sees the new revision on its next call (docs/reference/runtime.md §14.3). One line of JSON with
// `", "` / `": "` separators; exit 0 ok, 1 error, 2 conflict or usage. The success object is the
// reference's gate-mutation.v1 shape (closed: no other keys); `--next` adds `next`, the status of the
// flow's payload after the resolution's dispatch and policy loop (outside that schema). `--by` records
// the person's name beside `resolved_by: "human"` (docs/guides/ui-people.md): a statement of whoever
// runs the command, who could write the store anyway, not a sign-in.
import { Argument, type Command, Option } from "commander";
import { composeHostLazily, resolveGate } from "../../host/index";
import { encodeWire, GATE_ACTION_OUTCOMES, RESOLVERS } from "../../interpreter/index";
import { NAME_PATTERN, NAME_RULE } from "../../ui/index";
import type { CommandContext } from "../command-context";
import { EXIT_ERRORS, EXIT_OK, EXIT_USAGE } from "../exit-codes";
import { STORE_OPTION_FLAGS, STORE_OPTION_HELP, withStoreOption } from "../store-location";

interface GateOptions {
  readonly note: string;
  readonly resolvedBy: string;
  readonly by?: string;
  readonly next?: boolean;
  readonly store?: string;
}

export function registerGate(program: Command, ctx: CommandContext): void {
  program
    .command("gate")
    .description("resolve the gate a flow waits at, as stratum_gate_resolve (reject = kill)")
    .addArgument(
      new Argument("<action>", "what to do with the gate").choices([...GATE_ACTION_OUTCOMES.keys()]),
    )
    .argument("<flow_id>", "the flow's id")
    .argument("<step_id>", "the gate step the flow waits at")
    .option("--note <text>", "the rationale recorded with the resolution", "")
    .addOption(new Option("--resolved-by <who>", "who resolved the gate").choices(RESOLVERS).default("human"))
    .option("--by <name>", "the person who decided, recorded as resolved_by_name (with --resolved-by human)")
    .option(
      "--next",
      "also print `next`, the status the flow answers after the resolution's dispatch and policy loop (execute_step, await_gate, execute_flow, complete, killed; null for a refused revise) — a key outside the reference's gate-mutation.v1 schema",
    )
    .option(STORE_OPTION_FLAGS, STORE_OPTION_HELP)
    .action(async (action: string, flowId: string, stepId: string, options: GateOptions) => {
      const refused =
        options.by === undefined
          ? null
          : options.resolvedBy !== "human"
            ? "--by names a person: it goes with --resolved-by human"
            : NAME_PATTERN.test(options.by)
              ? null
              : `--by '${options.by}': ${NAME_RULE}`;
      if (refused !== null) {
        ctx.io.err(`${ctx.programName} gate: ${refused}\n`);
        ctx.setExitCode(EXIT_USAGE);
        return;
      }
      const host = await composeHostLazily({
        ...withStoreOption(ctx.host, options.store),
        logError: (details) => ctx.io.err(`${ctx.programName}: ${details}\n`),
      });
      const answer = await resolveGate(host, {
        flowId,
        stepId,
        outcome: GATE_ACTION_OUTCOMES.get(action) ?? "approve", // commander checked the choice
        note: options.note,
        resolvedBy: options.resolvedBy,
        ...(options.by === undefined ? {} : { resolvedByName: options.by }),
        withNext: options.next === true,
      });
      ctx.io.out(`${encodeWire(answer.output)}\n`);
      ctx.setExitCode(answer.kind === "ok" ? EXIT_OK : answer.kind === "conflict" ? EXIT_USAGE : EXIT_ERRORS);
    });
}
