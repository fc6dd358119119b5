// `stratumc fuzz [paths | dirs | globs | -]`: runs each spec that checks without errors many
// times against the interpreter (the fuzzer plays agent, human and caller) and reports what the
// runs show, as findings located in the spec, each with a counterexample that replays it.
// Inputs, formats and exit codes as `check`: 0 no error findings, 1 error findings, checker
// errors or more than --max-warnings warnings, 2 usage error or unreadable input.
import { type Command, Option } from "commander";
import type { FuzzFinding } from "../../fuzzer/index";
import { exitCode, FORMATS, type Format, parseMaxWarnings } from "../check/command";
import { resolveInputs } from "../check/inputs";
import { checkInputsWithResults } from "../check/run";
import type { CommandContext } from "../command-context";
import { formatGithubReports } from "../format/github";
import { type FileReport, totals } from "../format/report";
import { formatSarifReports } from "../format/sarif";
import { styleFor } from "../format/style";
import { JOBS_HELP, parseJobs } from "../jobs-option";
import { VERSION } from "../version";
import { formatFuzzJson } from "./format-json";
import { formatFuzzPretty } from "./format-pretty";
import { parseDuration, parseSeed, parseWholeNumber } from "./options";
import { ProgressLine } from "./progress";
import { type FuzzInputsOptions, fuzzInputs } from "./run";
import { saveCounterexamples } from "./save";

interface FuzzFlags {
  readonly flow?: string;
  readonly runs?: string;
  readonly seed?: string;
  readonly timeBudget?: string;
  readonly maxSteps?: string;
  readonly format: Format;
  readonly save?: string;
  readonly maxWarnings?: string;
  readonly jobs?: string;
}

export function registerFuzz(program: Command, ctx: CommandContext): void {
  program
    .command("fuzz")
    .description("run specs many times against the interpreter and report what the runs show")
    .argument(
      "[paths...]",
      "files, directories (every *.stratum.yaml below), globs, or - for standard input",
      [],
    )
    .option("--flow <name>", "fuzz only this flow")
    .option("--runs <n>", "random runs per flow (default 100)")
    .option("--seed <n>", "seed of the exploration: the same seed gives the same report (default 42)")
    .option(
      "--time-budget <duration>",
      "stop exploring after this long (500ms, 3s, 2m), for the whole command, shared among the specs; the report then depends on speed",
    )
    .option("--jobs <n>", `${JOBS_HELP}; the report is the same for any N`)
    .option("--max-steps <n>", "tool calls per run (default 200)")
    .addOption(new Option("--format <format>", "output format").choices(FORMATS).default("pretty"))
    .option(
      "--save <dir>",
      "write each finding's counterexample to DIR (replay it with `stratumc replay FILE`)",
    )
    .option("--max-warnings <n>", "exit with 1 when there are more than N warnings")
    .addHelpText(
      "after",
      "\nExit codes: 0 no error findings, 1 error findings, checker errors or more than --max-warnings warnings," +
        " 2 usage error or unreadable input.\nA spec with checker errors is reported as `check` reports it and not fuzzed.",
    )
    .action(async (paths: string[], flags: FuzzFlags) => {
      // The time budget counts from here: reading and checking the specs is part of the command.
      const startedAt = Date.now();
      const maxWarnings = parseMaxWarnings(flags.maxWarnings);
      const options = fuzzOptions(flags, startedAt);
      const checked = await checkInputsWithResults(resolveInputs(paths, ctx.host.cwd), ctx.host);
      const progress = ctx.host.stderrIsTTY ? new ProgressLine((text) => ctx.io.err(text)) : null;
      const run = await fuzzInputs(checked, options, progress);
      const saved =
        flags.save === undefined
          ? new Map<FuzzFinding, string>()
          : saveCounterexamples(run, flags.save, ctx.host.cwd);
      const reports: FileReport[] = run.files.map((f) => f.report);
      const t = totals(reports);
      switch (flags.format) {
        case "pretty": {
          const style = styleFor(ctx.host.env, ctx.host.stdoutIsTTY);
          const budgeted = options.deadlineAt !== undefined;
          ctx.io.out(formatFuzzPretty(run, t, { style, programName: ctx.programName, saved, budgeted }));
          break;
        }
        case "json":
          ctx.io.out(formatFuzzJson(run));
          break;
        case "sarif":
          ctx.io.out(formatSarifReports(reports, VERSION));
          break;
        case "github":
          ctx.io.out(formatGithubReports(reports));
          break;
      }
      if (maxWarnings !== null && t.warnings > maxWarnings) {
        ctx.io.err(`${ctx.programName}: ${t.warnings} warning(s), more than --max-warnings ${maxWarnings}\n`);
      }
      ctx.setExitCode(exitCode(t, maxWarnings));
    });
}

function fuzzOptions(flags: FuzzFlags, startedAt: number): FuzzInputsOptions {
  return {
    fuzz: {
      ...(flags.flow === undefined ? {} : { flow: flags.flow }),
      ...(flags.runs === undefined ? {} : { runs: parseWholeNumber("--runs", flags.runs, 1) }),
      ...(flags.seed === undefined ? {} : { seed: parseSeed(flags.seed) }),
      ...(flags.maxSteps === undefined
        ? {}
        : { maxCalls: parseWholeNumber("--max-steps", flags.maxSteps, 1) }),
    },
    jobs: parseJobs(flags.jobs),
    ...(flags.timeBudget === undefined
      ? {}
      : { deadlineAt: startedAt + parseDuration("--time-budget", flags.timeBudget) }),
  };
}
