// `stratumc flows prune [--older-than AGE] [--include-exhausted] [--dry-run]` (docs/runtime.md §21.2):
// deletes kept flow files (DIV-KEEP-FINISHED) that are complete or killed (plus exhausted with
// --include-exhausted) and older than AGE; never a running flow or one waiting at a gate. A flow
// that changed since it was read (another process resumed or resolved it) is left alone.
import type { Command } from "commander";
import {
  DEFAULT_PRUNE_AGE,
  loadAllFlows,
  type PruneOptions,
  parsePruneAge,
  pruneStatus,
} from "../../interpreter/index";
import { EXIT_ERRORS, UsageError } from "../exit-codes";
import { loadFlowHost } from "../flow-host-loader";
import type { CommandContext } from "../host";
import { STORE_OPTION_FLAGS, STORE_OPTION_HELP, withStoreOption } from "../store-location";

interface PruneFlags {
  readonly olderThan: string;
  readonly includeExhausted?: boolean;
  readonly dryRun?: boolean;
  readonly store?: string;
}

export function registerFlows(program: Command, ctx: CommandContext): void {
  const flows = program.command("flows").description("manage the flows kept in the flow store");
  flows
    .command("prune")
    .description("delete finished (complete or killed) flows last modified more than AGE ago")
    .option(
      "--older-than <age>",
      "minimum age: a number of days (0 = any age) or a duration such as 7d, 12h, 30m, 45s",
      DEFAULT_PRUNE_AGE,
    )
    .option("--include-exhausted", "also delete flows stopped by retries_exhausted")
    .option("--dry-run", "print what would be deleted and delete nothing")
    .option(STORE_OPTION_FLAGS, STORE_OPTION_HELP)
    .action(async (flags: PruneFlags) => {
      const olderThanMs = parsePruneAge(flags.olderThan);
      if (olderThanMs === null)
        throw new UsageError(
          `--older-than: expected a number of days or a duration such as 7d, 12h, 30m, 45s, got '${flags.olderThan}'`,
        );
      const dryRun = flags.dryRun === true;
      const options: PruneOptions = {
        olderThanMs,
        includeExhausted: flags.includeExhausted === true,
        nowMs: Date.now(),
      };
      const { store, restore, removeLeftovers } = await loadFlowHost(withStoreOption(ctx.host, flags.store));
      if (!dryRun) await removeLeftovers();
      let pruned = 0;
      // A corrupt flow file (issue 13) has no status to prune by: named on stderr, never deleted.
      const corruptWarning = (c: { readonly file: string; readonly problem: string }) =>
        ctx.io.err(`warning: corrupt flow file ${c.file}: ${c.problem} (not pruned)\n`);
      for (const { flowId: id, run, token, modifiedMs } of await loadAllFlows(
        store,
        restore,
        corruptWarning,
      )) {
        const status = pruneStatus(run, modifiedMs, options);
        if (status === null) continue;
        if (!dryRun) {
          if ((await store.token(id)) !== token) continue; // changed meanwhile: not old any more
          try {
            if (!(await store.remove(id))) continue; // removed meanwhile
          } catch (e) {
            ctx.io.err(
              `${ctx.programName}: cannot remove flow ${id}: ${e instanceof Error ? e.message : String(e)}\n`,
            );
            ctx.setExitCode(EXIT_ERRORS);
            continue;
          }
        }
        ctx.io.out(`${dryRun ? "would remove" : "removed"} ${id} (${status}, ${run.state.flow_name})\n`);
        pruned++;
      }
      ctx.io.out(dryRun ? `Would prune ${pruned} flow(s).\n` : `Pruned ${pruned} flow(s).\n`);
    });
}
