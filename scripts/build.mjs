// Bundles the front ends with esbuild (run by `npm install` through the `prepare` script) and
// builds the V8 startup snapshot of `stratumc` (docs/design/performance.md).
// Bundling matters for start-up time: unbundled chevrotain alone costs ~250 ms (stack.md).
//   --bench          also bundles the benchmark runner
//   --snapshot-only  only (re)builds dist/stratumc.blob from an existing dist/stratumc-snapshot.cjs
//                    (needs node only, not esbuild: for an install that ships the bundles)
//   --if-missing     with --snapshot-only: do nothing when the blob exists or there is no bundle
//                    (the `postinstall` of a packed install; in a checkout `prepare` builds all)
// STRATUMC_NO_SNAPSHOT=1 skips the snapshot, and so does `prepare` run by `npm pack` / `npm publish`
// (the blob is never packed: the package's postinstall builds it for the installing node).
// On success nothing is printed: `npm pack` output is read by tools (the pre-commit framework
// takes its stdout as the tarball name), and errors go to stderr.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const fixture = join(root, "bench/fixtures/typical.stratum.yaml");
const snapshotEntry = join(dist, "stratumc-snapshot.cjs");
const checkSnapshotEntry = join(dist, "stratumc-check-snapshot.cjs");
const exploreSnapshotEntry = join(dist, "stratumc-explore-snapshot.cjs");

const snapshotOnly = process.argv.includes("--snapshot-only");
const nothingToDo =
  snapshotOnly &&
  process.argv.includes("--if-missing") &&
  (existsSync(join(dist, "stratumc.blob")) || !existsSync(snapshotEntry));
if (!snapshotOnly) await bundle();
if (!nothingToDo) buildSnapshot();

async function bundle() {
  const esbuild = await importEsbuild();
  const { build } = esbuild;
  const common = {
    absWorkingDir: root,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    sourcemap: "linked",
    legalComments: "none",
    logLevel: "warning",
    outExtension: { ".js": ".cjs" },
    // ESM dependencies (fdir, under tinyglobby) call createRequire(import.meta.url), which a CJS
    // bundle does not have: give them the bundle's own URL.
    banner: { js: 'const __bundle_url = require("node:url").pathToFileURL(__filename).href;' },
    define: {
      STRATUMC_BUNDLED: "true",
      "import.meta.url": "__bundle_url",
    },
    plugins: [bundledOptionalRequire(), pgLibraryOutside()],
  };
  // The PostgreSQL client library (host/pg-store/pg-library.ts), loaded only by a process that
  // opens a PostgreSQL store; pg's optional native binding is never used.
  await build({
    ...common,
    plugins: [bundledOptionalRequire(), noPgNative()],
    entryPoints: { pg: "host/pg-store/pg-library.ts" },
    outdir: dist,
  });
  // The MCP server process, the language server and the MCP client of `replay --server` are bundles
  // of their own, loaded only by `serve` / `lsp` / `replay` (cli/serve/load-server.ts,
  // cli/lsp/load-server.ts, cli/replay/load-client.ts); the MCP server starts each stratum_fuzz
  // job as a worker thread on dist/fuzz-worker.cjs (mcp/fuzz-jobs.ts).
  await build({
    ...common,
    entryPoints: {
      mcp: "mcp/process.ts",
      "fuzz-worker": "mcp/fuzz-worker.ts",
      // The worker threads of `stratumc fuzz --jobs` and `check --deep` (cli/fuzz-workers.ts).
      "fuzz-spec-worker": "cli/fuzz-spec-worker.ts",
      lsp: "lsp/serve-stdio.ts",
      "mcp-client": "cli/replay/mcp-client.ts",
    },
    outdir: dist,
  });
  // The web page of `stratumc ui` (ui/page/), built for the browser and carried inside its
  // server's bundle (dist/ui.cjs), so the package needs no files beside it.
  const { buildPage } = await import("../ui/page/build-page.mjs");
  const page = await buildPage(esbuild, root);
  await build({
    ...common,
    define: { ...common.define, STRATUMC_UI_PAGE: JSON.stringify(page) },
    // ui-reader: the worker thread that reads flows for it (ui/flow-reader.ts).
    entryPoints: { ui: "ui/run-ui.ts", "ui-reader": "ui/reader-worker.ts" },
    outdir: dist,
  });
  const withoutServer = { ...common, plugins: [...common.plugins, serverOutside()] };
  const entryPoints = { stratumc: "cli/main.ts" };
  // The bench drives Chromium for the web page's rows: playwright-core is required from
  // node_modules at run time (bundled, it looks for files beside itself).
  const bench = process.argv.includes("--bench");
  if (bench) entryPoints.bench = "bench/run.ts";
  await build({
    ...withoutServer,
    entryPoints,
    outdir: dist,
    ...(bench ? { external: ["playwright-core"] } : {}),
  });
  // The snapshot's entry: the same CLI, initialised and warmed up when the blob is built. The
  // whole bundle text lives in the snapshot heap (V8 keeps a script's source), so it is stripped
  // of comments and indentation (identifiers and syntax stay as written: names and messages are
  // unchanged, and buildSnapshot compares outputs with the plain bundle) and kept ASCII-only.
  const snapshotBuild = {
    ...withoutServer,
    sourcemap: false,
    minifyWhitespace: true,
    define: { ...common.define, STRATUMC_WARMUP_SPEC: JSON.stringify(readFileSync(fixture, "utf8")) },
    outdir: dist,
  };
  await build({ ...snapshotBuild, entryPoints: { "stratumc-snapshot": "scripts/snapshot-entry.ts" } });
  asciiOnly(snapshotEntry);
  // The `check` snapshot: only what `check` and `validate` run (cli/check-commands.ts).
  await build({
    ...snapshotBuild,
    plugins: [...snapshotBuild.plugins, checkOnly()],
    entryPoints: { "stratumc-check-snapshot": "scripts/snapshot-check-entry.ts" },
  });
  asciiOnly(checkSnapshotEntry);
  // The `explore` snapshot: `check --deep` and `fuzz` with `check` and `validate` (cli/explore-commands.ts).
  await build({
    ...snapshotBuild,
    plugins: [...snapshotBuild.plugins, exploreOnly()],
    entryPoints: { "stratumc-explore-snapshot": "scripts/snapshot-explore-entry.ts" },
  });
  asciiOnly(exploreSnapshotEntry);
}

/**
 * esbuild is a devDependency: a checkout (and a git-sourced install, for which npm and the
 * pre-commit framework install the devDependencies before `prepare`) has it; the packed package
 * ships the bundles and never runs this.
 */
async function importEsbuild() {
  try {
    return await import("esbuild");
  } catch (e) {
    if (e?.code !== "ERR_MODULE_NOT_FOUND") throw e;
    process.stderr.write(
      "stratumc: building the bundles needs the devDependencies (esbuild is missing).\n" +
        "  In a checkout, run `npm install` without --omit=dev (or `npm install --include=dev`);\n" +
        "  to use stratumc without building it, install a packed release (`npm install stratumc` or a\n" +
        "  stratumc-*.tgz), which ships the bundles.\n",
    );
    process.exit(1);
  }
}

/**
 * V8 stores a source with one character above U+00FF as two bytes per character: a single `…`
 * left in a comment doubled the 1.6 MB bundle in the heap (and the blob grew by 1.7 MB).
 * esbuild already escapes strings, regular expressions and identifiers (charset ascii), so
 * whatever non-ASCII character remains is inside a comment, where an escape is harmless.
 */
function asciiOnly(file) {
  const text = readFileSync(file, "utf8");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range itself
  const escaped = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (escaped !== text) writeFileSync(file, escaped);
}

/**
 * dist/stratumc.blob: the CLI with every module initialised, for `node --snapshot-blob`;
 * dist/stratumc-check.blob, the check-only program (`check`, `validate`); and
 * dist/stratumc-explore.blob, the explore program (`check --deep`, `fuzz`). A blob only works with
 * the node binary that built it, so all three are built here (never committed or packed) together with
 * dist/stratumc.blob.nodepath, the path of that binary, which bin/stratumc.cjs checks. Any failure
 * leaves no blob behind, and bin/stratumc.cjs then runs the plain bundle (or, without the check
 * blob, the whole CLI's blob).
 */
function buildSnapshot() {
  const stamp = join(dist, "stratumc.blob.nodepath");
  const blobs = [
    join(dist, "stratumc.blob"),
    join(dist, "stratumc-check.blob"),
    join(dist, "stratumc-explore.blob"),
  ];
  for (const file of [...blobs, stamp]) rmSync(file, { force: true });
  const packing = process.env.npm_command === "pack" || process.env.npm_command === "publish";
  if (process.env.STRATUMC_NO_SNAPSHOT || packing || process.platform === "win32") return;
  const spec = existsSync(fixture) ? readFileSync(fixture, "utf8") : 'version: "0.1"\n';
  const common = [["check", "-"], ...(existsSync(fixture) ? [["check", fixture]] : [])];
  const full = snapshotBlob(
    blobs[0],
    snapshotEntry,
    [
      ["--version"],
      ["eval", "len([1, 2]) + 1"],
      ...common,
      ["fuzz", "--format", "json", "-"],
      ["check", "--deep", "-"],
    ],
    spec,
  );
  // The check blob hands other command lines to the plain bundle: `--version` checks that it does.
  const check = snapshotBlob(
    blobs[1],
    checkSnapshotEntry,
    [["validate", "-"], ["--version"], ...common],
    spec,
  );
  const explore = snapshotBlob(
    blobs[2],
    exploreSnapshotEntry,
    [["--version"], ...common, ["fuzz", "--format", "json", "-"], ["check", "--deep", "-"]],
    spec,
  );
  if (full || check || explore) writeFileSync(stamp, `${process.execPath}\n`);
}

/** Builds one blob from its entry and keeps it only when it answers `cases` like the plain bundle. */
function snapshotBlob(blob, entry, cases, spec) {
  // The blob records the V8 flags it was built with; bin/stratumc.cjs runs it without any.
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const node = (args, input) =>
    spawnSync(process.execPath, args, { cwd: root, env, encoding: "utf8", input, timeout: 60_000 });
  const tmp = `${blob}.${process.pid}.tmp`;
  try {
    if (!existsSync(entry)) throw new Error(`${entry} is missing`);
    const built = node(["--snapshot-blob", tmp, "--build-snapshot", entry]);
    if (built.status !== 0) throw new Error(`building failed: ${lastLine(built.stderr)}`);
    // The snapshot must answer exactly like the plain bundle.
    for (const args of cases) {
      const input = args.includes("-") ? spec : undefined;
      const fast = node(["--snapshot-blob", tmp, "--", ...args], input);
      const plain = node([join(dist, "stratumc.cjs"), ...args], input);
      if (fast.status !== plain.status || fast.stdout !== plain.stdout || fast.stderr !== plain.stderr) {
        const what = `'stratumc ${args.join(" ")}'`;
        throw new Error(`${what} differs from the plain bundle (exit ${fast.status} vs ${plain.status})`);
      }
    }
    renameSync(tmp, blob);
    return true;
  } catch (e) {
    rmSync(tmp, { force: true });
    const name = blob.slice(dist.length + 1);
    process.stderr.write(
      `stratumc: startup snapshot ${name} not built (${e.message}); the CLI starts without it\n`,
    );
    return false;
  }
}

/**
 * Keeps out of the `check` snapshot what the check-only program never runs: the fuzzer (`check
 * --deep`, which bin/stratumc.cjs sends to the explore snapshot and cli/main-check.ts to the whole
 * CLI) and stratum-mcp's command rules (stratum-mcp is never served by it either). Reaching one
 * would fail loudly.
 */
function checkOnly() {
  return neverLoaded("check-only", /^\.\.\/fuzzer\/index$|^\.\/mcp-commands\/dispatch$/);
}

/** Keeps stratum-mcp's command rules out of the `explore` snapshot, which never serves stratum-mcp. */
function exploreOnly() {
  return neverLoaded("explore-only", /^\.\/mcp-commands\/dispatch$/);
}

function neverLoaded(name, filter) {
  return {
    name,
    setup(b) {
      b.onResolve({ filter }, (args) => ({
        path: `./not-in-the-check-snapshot/${args.path}`,
        external: true,
      }));
    },
  };
}

/**
 * Keeps the MCP and language servers, the MCP client and the web page's server (dist/mcp.cjs,
 * dist/lsp.cjs, dist/mcp-client.cjs, dist/ui.cjs) out of the CLI bundles.
 */
function serverOutside() {
  return {
    name: "server-outside",
    setup(b) {
      b.onResolve({ filter: /^\.\.\/\.\.\/mcp\/index$/ }, () => ({ path: "./mcp.cjs", external: true }));
      b.onResolve({ filter: /^\.\/mcp-client$/ }, () => ({ path: "./mcp-client.cjs", external: true }));
      b.onResolve({ filter: /^\.\/run-ui$/ }, () => ({ path: "./ui.cjs", external: true }));
      b.onResolve({ filter: /^\.\.\/\.\.\/lsp\/(serve-stdio|index)$/ }, () => ({
        path: "./lsp.cjs",
        external: true,
      }));
    },
  };
}

/**
 * pg requires its optional native binding (pg-native) only when asked for `pg.native`, which we
 * never do: the bundle gets a module that says so instead of a require of a package it lacks.
 */
function noPgNative() {
  return {
    name: "no-pg-native",
    setup(b) {
      b.onResolve({ filter: /^pg-native$/ }, () => ({ path: "pg-native", namespace: "no-pg-native" }));
      b.onLoad({ filter: /.*/, namespace: "no-pg-native" }, () => ({
        contents: 'throw new Error("pg-native is not part of stratumc");',
        loader: "js",
      }));
    },
  };
}

/** Every other bundle requires dist/pg.cjs beside it instead of carrying the PostgreSQL client. */
function pgLibraryOutside() {
  return {
    name: "pg-library-outside",
    setup(b) {
      b.onResolve({ filter: /^\.\/pg-library$/ }, () => ({ path: "./pg.cjs", external: true }));
    },
  };
}

/**
 * fdir (under tinyglobby) loads its optional picomatch at start-up through createRequire, which
 * esbuild cannot see: the bundle would read node_modules/picomatch on every start (and a V8
 * snapshot cannot be built after user CommonJS ran). A static require lets esbuild bundle it.
 */
function bundledOptionalRequire() {
  const dynamic = '__require.resolve("picomatch");\n\tpm = __require("picomatch");';
  return {
    name: "bundled-optional-require",
    setup(b) {
      b.onLoad({ filter: /[\\/]fdir[\\/]dist[\\/]index\.mjs$/ }, (args) => {
        const text = readFileSync(args.path, "utf8");
        if (!text.includes(dynamic))
          throw new Error(`fdir changed: update bundledOptionalRequire (${args.path})`);
        return { contents: text.replace(dynamic, 'pm = require("picomatch");'), loader: "js" };
      });
    },
  };
}

function lastLine(text) {
  const lines = (text ?? "").trim().split("\n");
  return lines[lines.length - 1] ?? "";
}
