// Regenerates every generated file into a temporary directory and compares it with the committed
// one (each generated file has its generator in scripts/ and CI diffs them). Exit 1 with
// the first differing line of each stale file; 0 when all match. With --write, every generator
// writes into the repository instead: the one command that regenerates everything.
//
//   node scripts/check-generated.mjs            (npm run check:generated; test/scripts/generated.test.ts)
//   node scripts/check-generated.mjs --write    (npm run check:generated -- --write)
//
// Every generator takes `--out DIR` and writes its files under DIR at their repository paths. The
// Python generators record CPython 3.11's behaviour, so another python3 is an error, not a pass.
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { GENERATED_PAGES, MARKED_PAGES } from "./gen-docs.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const NEEDED_PYTHON = "3.11";

/** Each generator and the files or folders (relative to the repository) it writes. */
export const GENERATORS = [
  {
    script: "scripts/gen-cpython-value-tables.py",
    outputs: ["arith", "compare", "misc", "reprs", "json"].map((t) => `test/stdlib/values/tables/${t}.ts`),
  },
  {
    script: "scripts/gen-cpython-builtin-cases.py",
    outputs: ["test/stdlib/builtins/cpython-cases.generated.ts"],
  },
  { script: "scripts/gen-unicode-flags.py", outputs: ["test/stdlib/builtins/unicode-flags.generated.ts"] },
  { script: "scripts/gen-python-re-table.py", outputs: ["test/stdlib/regex/python-re-table.json"] },
  {
    script: "scripts/gen-output-schema-validator.mjs",
    outputs: [
      "checker/schema/generated/meta-schema-validator.js",
      "checker/schema/generated/meta-schema-validator.d.ts",
    ],
  },
  { script: "scripts/gen-install-assets.mjs", outputs: ["install/generated"] },
  // fast-check's grapheme tables, for the fuzzer's own grapheme unit.
  { script: "scripts/gen-grapheme-ranges.mjs", outputs: ["fuzzer/values/grapheme-ranges.ts"] },
  // The generated docs and schema, and the numbers inside the hand-written pages.
  { script: "scripts/gen-docs.mjs", outputs: [...GENERATED_PAGES, ...MARKED_PAGES] },
];

/** null when python3 is CPython 3.11.x, else why not. */
export function pythonProblem() {
  let version;
  try {
    version = execFileSync("python3", ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return `python3 not found: the CPython generators need CPython ${NEEDED_PYTHON}.x`;
  }
  return version.startsWith(`Python ${NEEDED_PYTHON}.`)
    ? null
    : `${version} found: the CPython generators need CPython ${NEEDED_PYTHON}.x (the tables record its behaviour)`;
}

function runGenerator(script, outDir) {
  const program = script.endsWith(".py") ? "python3" : process.execPath;
  return promisify(execFile)(program, [join(ROOT, script), "--out", outDir], {
    cwd: ROOT,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
  });
}

/** Files under a path (itself when it is a file), relative to `base`, sorted. */
function filesUnder(base, rel) {
  const path = join(base, rel);
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [rel];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(base, join(e.parentPath, e.name)))
    .sort();
}

/**
 * Compares one committed text with its regenerated text: null when equal, else a unified-style
 * message naming the file and the first differing line.
 */
export function compareText(rel, committed, fresh) {
  if (committed === fresh) return null;
  const a = committed.split("\n");
  const b = fresh.split("\n");
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const show = (line) =>
    line === undefined ? "(end of file)" : line.length > 200 ? `${line.slice(0, 200)}…` : line;
  return [
    `--- ${rel} (committed)`,
    `+++ ${rel} (regenerated)`,
    `@@ line ${i + 1} @@`,
    `-${show(a[i])}`,
    `+${show(b[i])}`,
  ].join("\n");
}

/** Compares the outputs of one generator under `freshRoot` with the repository (or `committedRoot`). */
export function compareOutputs(outputs, freshRoot, committedRoot = ROOT) {
  const problems = [];
  for (const out of outputs) {
    const committed = filesUnder(committedRoot, out);
    const fresh = filesUnder(freshRoot, out);
    for (const rel of committed.filter((f) => !fresh.includes(f)))
      problems.push(`${rel}: committed but no longer generated`);
    for (const rel of fresh.filter((f) => !committed.includes(f)))
      problems.push(`${rel}: generated but not committed`);
    for (const rel of fresh.filter((f) => committed.includes(f))) {
      const diff = compareText(
        rel,
        readFileSync(join(committedRoot, rel), "utf8"),
        readFileSync(join(freshRoot, rel), "utf8"),
      );
      if (diff) problems.push(diff);
    }
  }
  return problems;
}

/** Runs every generator (side by side) into a temporary directory; the problems found, [] when all match. */
export async function checkGenerated() {
  const python = pythonProblem();
  if (python) return [python];
  const tmp = mkdtempSync(join(tmpdir(), "stratum-generated-"));
  try {
    const runs = await Promise.allSettled(GENERATORS.map(({ script }) => runGenerator(script, tmp)));
    return GENERATORS.flatMap(({ script, outputs }, i) => {
      const run = runs[i];
      if (run.status === "rejected")
        return [`${script} failed: ${String(run.reason.stderr || run.reason.message).trim()}`];
      return compareOutputs(outputs, tmp).map((p) => `${p}\n(regenerate with: ${script})`);
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Runs every generator into the repository itself; the failures, [] when all ran. */
async function regenerate() {
  const python = pythonProblem();
  if (python) return [python];
  const runs = await Promise.allSettled(GENERATORS.map(({ script }) => runGenerator(script, ROOT)));
  return runs.flatMap((run, i) =>
    run.status === "rejected"
      ? [`${GENERATORS[i].script} failed: ${String(run.reason.stderr || run.reason.message).trim()}`]
      : [],
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes("--write")) {
  const failures = await regenerate();
  for (const f of failures) console.error(`${f}\n`);
  if (failures.length > 0) process.exit(1);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = await checkGenerated();
  for (const p of problems) console.error(`${p}\n`);
  if (problems.length > 0) {
    console.error(
      `check-generated: ${problems.length} problem(s): generated files are stale or cannot be regenerated`,
    );
    process.exit(1);
  }
}
