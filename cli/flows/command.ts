// `stratumc flows prune [--older-than AGE] [--include-exhausted] [--dry-run]` (docs/reference/runtime.md §21.2):
// deletes kept flow files (DIV-KEEP-FINISHED) that are complete or killed (plus exhausted with
// --include-exhausted) and older than AGE; never a running flow or one waiting at a gate. A flow
// that changed since it was read (another process resumed or resolved it) is left alone.
// `stratumc flows migrate --from LOCATION --to LOCATION [--dry-run]` is registered here too (migrate.ts).
import type { Command } from "commander";
import { composeHostLazily } from "../../host/index";
import {
  DEFAULT_PRUNE_AGE,
  loadAllFlows,
  type PruneOptions,
  parsePruneAge,
  pruneStatus,
} from "../../interpreter/index";
import type { CommandContext } from "../command-context";
import { EXIT_ERRORS, UsageError } from "../exit-codes";
import { STORE_OPTION_FLAGS, STORE_OPTION_HELP, withStoreOption } from "../store-location";

interface MigrateFlags {
  readonly from: string;
  readonly to: string;
  readonly dryRun?: boolean;
}

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
      const { store, restore, removeLeftovers } = await composeHostLazily(
        withStoreOption(ctx.host, flags.store),
      );
      if (!dryRun) await removeLeftovers();
      let pruned = 0;
      // A corrupt flow file has no status to prune by: named on stderr, never deleted.
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
  registerMigrate(flows, ctx);
}

const LOCATION_HELP = "a postgres:// URL, or a STRATUM_HOME directory (or the flows folder inside it)";

/** `flows migrate` (migrate.ts; loaded when it runs, as the engine is). */
function registerMigrate(flows: Command, ctx: CommandContext): void {
  flows
    .command("migrate")
    .description("copy every flow of one flow store into another (a directory to a database, and back)")
    .requiredOption("--from <location>", `the store to copy from: ${LOCATION_HELP}`)
    .requiredOption("--to <location>", `the store to copy into: ${LOCATION_HELP}`)
    .option("--dry-run", "print what would be copied and write nothing")
    .addHelpText(
      "after",
      `
Each flow is written to the target as one complete text at its current revision, then read back
and compared. Flows the target already holds in the same state are skipped ("already there"), so
running it again is harmless; a flow the target holds in another state is a conflict and is left
alone. The source is never modified. Stop the servers using the source first: a flow in progress
is copied as it is at that moment. Exit code 1 when a flow could not be migrated (corrupt,
conflict, not verified).`,
    )
    .action(async (flags: MigrateFlags) => {
      const { migrateFlows } = await import("./migrate");
      const summary = await migrateFlows(
        { from: flags.from, to: flags.to, dryRun: flags.dryRun === true, cwd: ctx.host.cwd },
        ctx.io,
      );
      if (summary.failed > 0) ctx.setExitCode(EXIT_ERRORS);
    });
}
