// `stratumc init [DIR]`: sets a project up for stratum specs —
//   plan.stratum.yaml           a starter spec that checks clean, the yaml-language-server modeline
//                               on its first line (never overwritten: an existing one is left alone)
//   .stratum/spec.schema.json   the JSON Schema of `stratumc schema` (rewritten when it differs, so
//                               running init again after an upgrade refreshes it); a local file, so
//                               the editor needs no network and always matches this stratumc
//   .pre-commit-config.yaml     a `stratumc-check` hook entry (created, or appended; left alone
//                               when a `stratumc-check` hook is there)
//   .vscode/settings.json       `yaml.schemas` maps the schema file to `**/*.stratum.yaml` (merged;
//                               JSONC comments kept; an existing association is left alone)
// Everything is planned before anything is written: a file init cannot update safely (not valid
// YAML/JSONC, a `repos` or `yaml.schemas` of the wrong kind) is named with its line and column,
// nothing is written anywhere and the exit code is 2. Running init twice changes nothing.
// Each write is atomic (a temporary file renamed over the target). Prints one line per file.
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { Command } from "commander";
import { specJsonSchema } from "../../checker/index";
import { readRegularFile } from "../../host/index";
import type { CommandContext } from "../command-context";
import { EXIT_OK, UsageError } from "../exit-codes";
import { insertMember, JsoncError, lineColumn, member, parseJsonc } from "./jsonc";
import { planPreCommit } from "./pre-commit";
import {
  PRE_COMMIT_FILE,
  SCHEMA_FILE,
  SPEC_GLOBS,
  STARTER_FILE,
  STARTER_SPEC,
  VSCODE_SCHEMA_KEY,
  VSCODE_SETTINGS,
} from "./starter";

interface Step {
  readonly file: string;
  /** The new text, or null to leave the file alone. */
  readonly text: string | null;
  readonly outcome: string;
}

export function registerInit(program: Command, ctx: CommandContext): void {
  program
    .command("init")
    .description(
      "set up a project: a starter spec, its JSON Schema for editors, a pre-commit hook and the VS Code schema association",
    )
    .argument("[dir]", "the project directory", ".")
    .action((dir: string) => {
      const root = resolve(ctx.host.cwd, dir);
      if (exists(root) && !statSync(root).isDirectory())
        throw new UsageError(`init: '${dir}' is not a directory`);
      const steps = [starter(root), schema(root), preCommit(root), vscode(root)];
      const failed = steps.filter((s): s is Step & { error: string } => "error" in s);
      if (failed.length > 0) {
        const lines = failed.map((s) => `${s.file}:${s.error}`).join("\n  ");
        throw new UsageError(`init: nothing written:\n  ${lines}`);
      }
      for (const s of steps) {
        if (s.text !== null) writeAtomic(join(root, s.file), s.text);
      }
      const shown = relative(ctx.host.cwd, root);
      for (const s of steps) ctx.io.out(`${shown === "" ? s.file : join(shown, s.file)}: ${s.outcome}\n`);
      ctx.setExitCode(EXIT_OK);
    });
}

type Planned = Step | (Step & { readonly error: string });

function starter(root: string): Planned {
  if (exists(join(root, STARTER_FILE)))
    return { file: STARTER_FILE, text: null, outcome: "exists, left alone" };
  return { file: STARTER_FILE, text: STARTER_SPEC, outcome: "created (a starter spec)" };
}

function schema(root: string): Planned {
  const text = `${JSON.stringify(specJsonSchema(), null, 2)}\n`;
  const now = readOrNull(join(root, SCHEMA_FILE));
  if (now === text) return { file: SCHEMA_FILE, text: null, outcome: "up to date" };
  return { file: SCHEMA_FILE, text, outcome: now === null ? "created (stratumc schema)" : "updated" };
}

function preCommit(root: string): Planned {
  const now = readOrNull(join(root, PRE_COMMIT_FILE));
  const plan = planPreCommit(now);
  switch (plan.kind) {
    case "unchanged":
      return { file: PRE_COMMIT_FILE, text: null, outcome: "stratumc-check hook already present" };
    case "write":
      return {
        file: PRE_COMMIT_FILE,
        text: plan.text,
        outcome: now === null ? "created" : "stratumc-check hook added",
      };
    case "error":
      return { file: PRE_COMMIT_FILE, text: null, outcome: "", error: `${plan.message}` };
  }
}

function vscode(root: string): Planned {
  const now = readOrNull(join(root, VSCODE_SETTINGS));
  const file = VSCODE_SETTINGS;
  const association = [...SPEC_GLOBS];
  if (now === null) {
    const text = `${JSON.stringify({ "yaml.schemas": { [VSCODE_SCHEMA_KEY]: association } }, null, 2)}\n`;
    return { file, text, outcome: "created (yaml.schemas)" };
  }
  let tree: ReturnType<typeof parseJsonc>;
  try {
    tree = parseJsonc(now);
  } catch (e) {
    if (!(e instanceof JsoncError)) throw e;
    const at = lineColumn(now, e.offset);
    return { file, text: null, outcome: "", error: `${at.line}:${at.column}: not valid JSON (${e.message})` };
  }
  if (tree.kind !== "object")
    return { file, text: null, outcome: "", error: "1:1: the top level is not an object" };
  const schemas = member(tree, "yaml.schemas");
  if (schemas === undefined) {
    return {
      file,
      text: insertMember(now, tree, "yaml.schemas", { [VSCODE_SCHEMA_KEY]: association }),
      outcome: "yaml.schemas added",
    };
  }
  if (schemas.value.kind !== "object") {
    const at = lineColumn(now, schemas.value.start);
    return {
      file,
      text: null,
      outcome: "",
      error: `${at.line}:${at.column}: "yaml.schemas" is not an object`,
    };
  }
  if (member(schemas.value, VSCODE_SCHEMA_KEY) !== undefined)
    return { file, text: null, outcome: "schema association already present" };
  return {
    file,
    text: insertMember(now, schemas.value, VSCODE_SCHEMA_KEY, association),
    outcome: "schema association added to yaml.schemas",
  };
}

function readOrNull(path: string): string | null {
  try {
    return readRegularFile(path).toString("utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new UsageError(`init: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.stratumc-init.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
