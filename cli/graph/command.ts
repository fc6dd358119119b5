// `stratumc graph FILE [--flow F] [--format mermaid|dot]`: draws the flows of a valid spec from its
// checked IR. An invalid spec prints its diagnostics (pretty, on standard error) and exits 1; an
// unreadable file exits 2; an unknown --flow is a usage error with a did-you-mean.
import { resolve } from "node:path";
import { type Command, Option } from "commander";
import { flowGraphs, suggest } from "../../checker/index";
import { STDIN_NAME } from "../check/inputs";
import { checkRead, readSpecFile, readSpecStdin } from "../check/read-spec";
import { reportOf, unreadable } from "../check/run";
import type { CommandContext } from "../command-context";
import { EXIT_ERRORS, EXIT_USAGE, UsageError } from "../exit-codes";
import { formatPrettyReports, formatSummary } from "../format/pretty";
import { totals } from "../format/report";
import { styleFor } from "../format/style";
import { renderDot, renderMermaid } from "./render";

interface GraphOptions {
  readonly flow?: string;
  readonly format: "mermaid" | "dot";
}

export function registerGraph(program: Command, ctx: CommandContext): void {
  program
    .command("graph")
    .description("draw the flows of a spec: steps, dependencies, routing and gate edges")
    .argument("<file>", "the spec file, or - for standard input")
    .option("--flow <name>", "draw only this flow")
    .addOption(
      new Option("--format <format>", "output format").choices(["mermaid", "dot"]).default("mermaid"),
    )
    .action(async (file: string, options: GraphOptions) => {
      const name = file === "-" ? STDIN_NAME : file;
      const read = file === "-" ? await readSpecStdin(ctx.host) : readSpecFile(resolve(ctx.host.cwd, file));
      const style = styleFor(ctx.host.env, ctx.host.stderrIsTTY);
      if (!read.ok) {
        ctx.io.err(formatPrettyReports([unreadable(name, read)], style));
        ctx.setExitCode(EXIT_USAGE);
        return;
      }
      const checked = checkRead(read);
      if (checked.ir === null) {
        const report = reportOf(name, checked);
        ctx.io.err(formatPrettyReports([report], style) + formatSummary(totals([report]), style));
        ctx.setExitCode(EXIT_ERRORS);
        return;
      }
      let flows = flowGraphs(checked.ir);
      if (options.flow !== undefined) {
        const wanted = options.flow;
        flows = flows.filter((f) => f.name === wanted);
        if (flows.length === 0) {
          const close = suggest(wanted, checked.ir.flows.keys());
          throw new UsageError(
            `unknown flow '${wanted}'${close === null ? "" : `; did you mean '${close.candidate}'?`}`,
          );
        }
      }
      ctx.io.out(options.format === "dot" ? renderDot(flows) : renderMermaid(flows));
    });
}
