// `stratumc check [paths | dirs | globs | -]`: argument handling, output and exit code.
// Exit 0: no errors (warnings allowed); 1: errors, or more warnings than --max-warnings;
// 2: usage error or an input that cannot be read (that wins over 1).
import { type Command, Option } from "commander";
import { EXIT_ERRORS, EXIT_OK, EXIT_USAGE, UsageError } from "../exit-codes";
import { formatGithubReports } from "../format/github";
import { formatJsonReports } from "../format/json";
import { formatPrettyReports, formatSummary } from "../format/pretty";
import { formatSarifReports } from "../format/sarif";
import { styleFor } from "../format/style";
import type { CommandContext } from "../host";
import { VERSION } from "../version";
import { DEEP_RUNS, deepReports } from "./deep";
import { resolveInputs } from "./inputs";
import type { FileReport, Totals } from "./report";
import { totals } from "./report";
import { checkInputsWithResults } from "./run";

export const FORMATS = ["pretty", "json", "sarif", "github"] as const;
export type Format = (typeof FORMATS)[number];

interface CheckOptions {
  readonly format: Format;
  readonly maxWarnings?: string;
  readonly deep?: boolean;
}

export function registerCheck(program: Command, ctx: CommandContext): void {
  program
    .command("check")
    .description("check .stratum.yaml specs and report every problem with its location")
    .argument(
      "[paths...]",
      "files, directories (every *.stratum.yaml below), globs, or - for standard input",
      [],
    )
    .addOption(new Option("--format <format>", "output format").choices(FORMATS).default("pretty"))
    .option("--max-warnings <n>", "exit with 1 when there are more than N warnings")
    .option(
      "--deep",
      `also fuzz every spec without errors briefly (${DEEP_RUNS} runs; \`stratumc fuzz\` explores more)`,
    )
    .addHelpText(
      "after",
      "\nExit codes: 0 no errors, 1 errors (or more than --max-warnings warnings), 2 usage error or unreadable input." +
        "\nSuppress one diagnostic with a YAML comment on its line or the line above: # stratum-ignore[CODE]: reason",
    )
    .action(async (paths: string[], options: CheckOptions) => {
      const maxWarnings = parseMaxWarnings(options.maxWarnings);
      const checked = await checkInputsWithResults(resolveInputs(paths, ctx.host.cwd), ctx.host);
      const reports = options.deep === true ? await deepReports(checked) : checked.map((c) => c.report);
      const t = totals(reports);
      ctx.io.out(render(reports, t, options.format, ctx));
      if (maxWarnings !== null && t.warnings > maxWarnings) {
        ctx.io.err(`${ctx.programName}: ${t.warnings} warning(s), more than --max-warnings ${maxWarnings}\n`);
      }
      ctx.setExitCode(exitCode(t, maxWarnings));
    });
}

function render(reports: readonly FileReport[], t: Totals, format: Format, ctx: CommandContext): string {
  switch (format) {
    case "pretty": {
      const style = styleFor(ctx.host.env, ctx.host.stdoutIsTTY);
      return formatPrettyReports(reports, style) + formatSummary(t, style);
    }
    case "json":
      return formatJsonReports(reports);
    case "sarif":
      return formatSarifReports(reports, VERSION);
    case "github":
      return formatGithubReports(reports);
  }
}

export function exitCode(t: Totals, maxWarnings: number | null): number {
  if (t.unreadable > 0) return EXIT_USAGE;
  if (t.errors > 0) return EXIT_ERRORS;
  if (maxWarnings !== null && t.warnings > maxWarnings) return EXIT_ERRORS;
  return EXIT_OK;
}

export function parseMaxWarnings(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (!/^\d+$/.test(text))
    throw new UsageError(`--max-warnings: expected a whole number >= 0, got '${text}'`);
  return Number(text);
}
