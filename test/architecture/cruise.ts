// The layering rules of .dependency-cruiser.cjs (the one source of them) and a cruise with them
// through dependency-cruiser's API, for the architecture tests.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { ICruiseOptions, IForbiddenRuleType, IViolation } from "dependency-cruiser";

export const REPO = join(__dirname, "../..");

/** The folders `npm run layers` cruises: the product, not tests, benchmarks or scripts. */
export const PRODUCT_FOLDERS = [
  "stdlib",
  "grammar",
  "checker",
  "interpreter",
  "fuzzer",
  "host",
  "cli",
  "lsp",
  "mcp",
  "ui",
  "install",
];

interface CodeMapRow {
  /** The code map row's first cell, as ARCHITECTURE.md shows it. */
  readonly folder: string;
  /** Its "must not depend on" cell. */
  readonly mustNotDependOn: string;
}

interface LayeringConfig {
  readonly forbidden: IForbiddenRuleType[];
  readonly options: ICruiseOptions;
  readonly LAYER_IMPORTS: Readonly<Record<string, readonly string[]>>;
  readonly CODE_MAP: readonly CodeMapRow[];
  /** The pure layers, which import no Node built-in module. */
  readonly CORE: readonly string[];
  readonly ENTRY_POINT_USERS: readonly string[];
  readonly SUBFOLDER_ORDER: Readonly<Record<string, readonly string[]>>;
}

export const CONFIG = createRequire(import.meta.url)(join(REPO, ".dependency-cruiser.cjs")) as LayeringConfig;

/**
 * Every violation of the layering rules among the modules reachable from `roots` under `baseDir`.
 * The cruise runs in a child process: its TypeScript parser is swc, a native addon, and a native
 * addon loaded in one of vitest's worker threads crashes the test process when the workers exit.
 */
export async function layeringViolations(
  baseDir: string,
  roots: readonly string[],
): Promise<readonly IViolation[]> {
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", CRUISE_CHILD], {
    cwd: REPO,
    input: JSON.stringify({ baseDir, roots, config: join(REPO, ".dependency-cruiser.cjs") }),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`dependency-cruiser failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as IViolation[];
}

/** The cruise, as `npm run layers` runs it, printing the violations as JSON. */
const CRUISE_CHILD = `
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { cruise } from "dependency-cruiser";
const { baseDir, roots, config } = JSON.parse(readFileSync(0, "utf8"));
const rules = createRequire(config)(config);
const result = await cruise(roots, { ...rules.options, baseDir, validate: true, ruleSet: { forbidden: rules.forbidden } });
if (typeof result.output === "string") throw new Error("dependency-cruiser returned a report, not a result");
process.stdout.write(JSON.stringify(result.output.summary.violations));
`;
