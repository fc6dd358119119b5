// What `stratumc compile` and `stratum-mcp compile` do once their words are parsed (runtime.md
// docs/reference/runtime.md §21.1): compile the task directory with the spec-kit compiler (docs/reference/runtime.md §19) and print the YAML on standard
// output with nothing appended, or write it to `--output` and print `Written to <file>`. Failures
// print one `ERROR: …` line on standard error and exit 1.
import { resolve } from "node:path";
import { nodeWorkspace } from "../../host/index";
import type { Response } from "../../interpreter/index";
import { compileSpeckit } from "../../interpreter/index";
import type { CommandContext } from "../command-context";
import { EXIT_ERRORS, EXIT_OK } from "../exit-codes";

export interface CompileRequest {
  /** The tasks directory as the user wrote it (messages repeat it as given). */
  readonly dir: string;
  /** The file to write, as given; null or "" = standard output (the reference tests truthiness). */
  readonly output: string | null;
  readonly flow: string;
}

export function runCompile(ctx: CommandContext, request: CompileRequest): void {
  const response = compileSpeckit(nodeWorkspace, ctx.host.cwd, request.dir, request.flow);
  const yaml = response.yaml;
  if (response.status !== "ok" || typeof yaml !== "string") {
    fail(ctx, errorLine(request.dir, response));
    return;
  }
  if (request.output === null || request.output === "") {
    ctx.io.out(yaml);
  } else {
    // Missing parent directories are created (the reference fails with a traceback instead).
    const written = nodeWorkspace.writeFile(resolve(ctx.host.cwd, request.output), yaml);
    if (!written.ok) {
      fail(ctx, `cannot write '${request.output}': ${written.reason}`);
      return;
    }
    ctx.io.out(`Written to ${request.output}\n`);
  }
  // The reference answers ok even when its spec does not validate (a `"` or `\` in a path or
  // needle breaks an ensure's string literal); we still succeed but say on standard error why the
  // spec will not plan, so the YAML on standard output stays untouched.
  for (const warning of warningsOf(response)) ctx.io.err(`WARNING: ${warning}\n`);
  ctx.setExitCode(EXIT_OK);
}

function errorLine(dir: string, response: Response): string {
  // The command line words this one differently from the tool (docs/reference/runtime.md §19.1 vs docs/reference/runtime.md §21.1).
  if (response.error_type === "directory_not_found") return `'${dir}' is not a directory`;
  return typeof response.message === "string" ? response.message : "compilation failed";
}

function warningsOf(response: Response): string[] {
  const warnings = response.warnings;
  return Array.isArray(warnings) ? warnings.filter((w): w is string => typeof w === "string") : [];
}

function fail(ctx: CommandContext, message: string): void {
  ctx.io.err(`ERROR: ${message}\n`);
  ctx.setExitCode(EXIT_ERRORS);
}
