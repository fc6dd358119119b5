// `stratumc check [paths | dirs | globs | -]`: argument handling, output and exit code.
// Exit 0: no errors (warnings allowed); 1: errors, or more warnings than --max-warnings;
// 2: usage error or an input that cannot be read (that wins over 1).
// --fix / --fix-dry-run: fix.ts (exit code and report as `check` of the fixed result). --quiet:
// only errors are reported (every format and the summary); warnings still count for
// --max-warnings, as in ESLint 9. --watch: watch.ts. --portable[=VERSION]: also SPEC-NOT-PORTABLE
// warnings, every use of a feature stratum-mcp VERSION rejects (docs/reference/language.md §9.7).
import { type Command, Option } from "commander";
import { DEFAULT_PORTABLE_VERSION, REFERENCE_VERSIONS, type ReferenceVersion } from "../../checker/index";
import type { CommandContext } from "../command-context";
import { EXIT_ERRORS, EXIT_OK, EXIT_USAGE, UsageError } from "../exit-codes";
import { formatGithubReports } from "../format/github";
import { formatJsonReports } from "../format/json";
import { formatPrettyReports, formatSummary } from "../format/pretty";
import type { FileReport, Totals } from "../format/report";
import { reportWithDiagnostics, totals } from "../format/report";
import { formatSarifReports } from "../format/sarif";
import { styleFor } from "../format/style";
import { JOBS_HELP, parseJobs } from "../jobs-option";
import { VERSION } from "../version";
import { DEEP_RUNS, deepReports } from "./deep";
import { fixInputs } from "./fix";
import { resolveInputs } from "./inputs";
import { checkInputsWithResults } from "./run";
import { signalStop, watchChecks } from "./watch";

export const FORMATS = ["pretty", "json", "sarif", "github"] as const;
export type Format = (typeof FORMATS)[number];

interface CheckOptions {
  readonly format: Format;
  readonly maxWarnings?: string;
  readonly deep?: boolean;
  readonly jobs?: string;
  readonly fix?: boolean;
  readonly fixDryRun?: boolean;
  readonly quiet?: boolean;
  readonly watch?: boolean;
  /** true for `--portable` alone; the word after it otherwise (a version, or a path, see portableOption). */
  readonly portable?: boolean | string;
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
    .option("--jobs <n>", `with --deep: ${JOBS_HELP}`)
    .addOption(
      new Option(
        "--fix",
        "apply every machine-applicable fix and rewrite the file (only when no error would remain)",
      ).conflicts(["fixDryRun", "watch"]),
    )
    .addOption(
      new Option(
        "--fix-dry-run",
        "print the diff --fix would make, then the report; write nothing",
      ).conflicts("watch"),
    )
    .option("--quiet", "report errors only (warnings still count for --max-warnings)")
    .option("--watch", "check again whenever a spec below the paths changes, until Ctrl-C")
    .option(
      "--portable [version]",
      `also warn (SPEC-NOT-PORTABLE) at every feature stratum-mcp VERSION rejects (${REFERENCE_VERSIONS.join(" or ")}; default ${DEFAULT_PORTABLE_VERSION}): those only stratumc accepts, and for 0.2.50 those new in 0.2.69; give it as --portable=VERSION`,
    )
    .addHelpText(
      "after",
      "\nExit codes: 0 no errors, 1 errors (or more than --max-warnings warnings), 2 usage error or unreadable input." +
        "\nSuppress one diagnostic with a YAML comment on its line or the line above: # stratum-ignore[CODE]: reason" +
        "\n--fix never writes a file with YAML errors or one that would still have errors after fixing.",
    )
    .action(async (given: string[], parsed: CheckOptions) => {
      const portable = portableOption(parsed.portable);
      const paths = portable.path === null ? given : [portable.path, ...given];
      const options = { ...parsed, portable: portable.target };
      const maxWarnings = parseMaxWarnings(options.maxWarnings);
      if (options.fixDryRun === true && options.format !== "pretty")
        throw new UsageError("--fix-dry-run prints a diff and the pretty report; it takes no --format");
      if (paths.includes("-")) {
        if (options.fix === true)
          throw new UsageError("--fix cannot rewrite standard input (--fix-dry-run - prints the diff)");
        if (options.watch === true) throw new UsageError("--watch cannot watch standard input");
      }
      const once = () => checkOnce(paths, options, maxWarnings, ctx);
      if (options.watch !== true) {
        ctx.setExitCode(await once());
        return;
      }
      const watched = async () => {
        try {
          return await once();
        } catch (e) {
          if (!(e instanceof UsageError)) throw e;
          ctx.io.err(`${ctx.programName}: ${e.message}\n`);
          return EXIT_USAGE;
        }
      };
      ctx.setExitCode(await watchChecks(paths, watched, ctx, signalStop()));
    });
}

/**
 * `--portable`'s optional value. Commander takes the word after `--portable` as its value, so in
 * `check --portable spec.stratum.yaml` the path arrives here: a word that is not shaped like a
 * version is given back as the first path. A version-shaped word must be one of REFERENCE_VERSIONS.
 */
function portableOption(value: boolean | string | undefined): {
  readonly target: ReferenceVersion | false;
  readonly path: string | null;
} {
  if (value === undefined || value === false) return { target: false, path: null };
  if (value === true) return { target: DEFAULT_PORTABLE_VERSION, path: null };
  if (!/^[0-9]+\.[0-9]+(\.[0-9]+)?$/.test(value)) return { target: DEFAULT_PORTABLE_VERSION, path: value };
  const known = REFERENCE_VERSIONS.find((v) => v === value);
  if (known === undefined) {
    throw new UsageError(
      `--portable=${value}: unknown stratum-mcp version; expected ${REFERENCE_VERSIONS.join(" or ")}`,
    );
  }
  return { target: known, path: null };
}

async function checkOnce(
  paths: readonly string[],
  options: Omit<CheckOptions, "portable"> & { readonly portable: ReferenceVersion | false },
  maxWarnings: number | null,
  ctx: CommandContext,
): Promise<number> {
  const inputs = resolveInputs(paths, ctx.host.cwd);
  const checkOptions = { portable: options.portable };
  let checked = await checkInputsWithResults(inputs, ctx.host, checkOptions);
  if (options.fix === true || options.fixDryRun === true)
    checked = fixInputs(inputs, checked, options.fix === true ? "write" : "dry-run", ctx.io, checkOptions);
  const jobs = parseJobs(options.jobs);
  const reports = options.deep === true ? await deepReports(checked, jobs) : checked.map((c) => c.report);
  const t = totals(reports);
  const shown = options.quiet === true ? reports.map(errorsOnly) : reports;
  ctx.io.out(render(shown, totals(shown), options.format, ctx));
  if (maxWarnings !== null && t.warnings > maxWarnings) {
    ctx.io.err(`${ctx.programName}: ${t.warnings} warning(s), more than --max-warnings ${maxWarnings}\n`);
  }
  return exitCode(t, maxWarnings);
}

/** The report without its warnings (--quiet). */
function errorsOnly(r: FileReport): FileReport {
  if (r.lines === null || r.warnings.length === 0) return r;
  return reportWithDiagnostics(r.file, r.lines, r.errors);
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
