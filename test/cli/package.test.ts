// The npm package (what `npm pack` ships, and so what the pre-commit framework and `npm install -g`
// install): exactly the launchers, the bundles, the snapshot builder and the licence, with no
// runtime dependency (the bundles contain them), and it runs on its own — without the
// repository's sources or node_modules — after its postinstall step. `npm pack` prints the tarball
// name alone on stdout (the pre-commit framework installs the file it names). The real installs
// (tarball into an empty directory, the hook through the pre-commit framework) are proven by
// scripts/ci-distribution.sh, which .ci/run runs.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres } from "../support/postgres";
import { startUi } from "../ui/browser-support";
import { ensureBundle, REPO } from "./run-cli";

interface PackedFile {
  readonly path: string;
}

interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly license?: string;
  readonly repository?: { type: string; url: string };
  readonly bugs?: { url: string };
  readonly homepage?: string;
  readonly keywords?: string[];
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly scripts?: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as PackageJson;

/** The environment of a child npm without the npm_* variables of an `npm test` around us. */
function cleanEnv(changes: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key)) env[key] = value;
  }
  return { ...env, ...changes };
}

function packedFiles(): string[] {
  const r = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: REPO,
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  const [pack] = JSON.parse(r.stdout) as [{ files: PackedFile[] }];
  return pack.files.map((f) => f.path).sort();
}

/** The check-only bundles' stand-in path for modules they must never load (scripts/build.mjs checkOnly). */
const NEVER_LOADED = "./not-in-the-check-snapshot/";
const CHECK_ONLY_BUNDLES = new Set(["dist/stratumc-check-snapshot.cjs"]);

describe("npm package", () => {
  let files: string[];
  let installed: string;

  beforeAll(() => {
    ensureBundle();
    files = packedFiles();
    // Lay the packed files out as npm would, with no node_modules beside them.
    installed = mkdtempSync(join(tmpdir(), "stratumc-package-"));
    for (const f of files) {
      mkdirSync(join(installed, f, ".."), { recursive: true });
      cpSync(join(REPO, f), join(installed, f));
    }
    // `npm pack --dry-run` alone takes seconds; a loaded 2-core machine needs more than the default 10 s.
  }, 120_000);

  afterAll(() => {
    rmSync(installed, { recursive: true, force: true });
  });

  it("ships the launchers, the bundles, the snapshot builder, the docs and the licence, nothing else", () => {
    // docs/ without its images: help and explain point to the installed copy (cli/installed-docs.ts).
    const docs = readdirSync(join(REPO, "docs"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(REPO, join(e.parentPath, e.name)).split("\\").join("/"))
      .filter((f) => !f.startsWith("docs/images/"));
    expect(docs).toContain("docs/reference/rules.md");
    expect(files.filter((f) => !f.startsWith("docs/"))).toEqual([
      "LICENSE",
      "README.md",
      "bin/stratum-mcp.cjs",
      "bin/stratumc.cjs",
      "dist/fuzz-spec-worker.cjs",
      "dist/fuzz-worker.cjs",
      "dist/lsp.cjs",
      "dist/mcp-client.cjs",
      "dist/mcp.cjs",
      "dist/pg.cjs",
      "dist/stratumc-check-snapshot.cjs",
      "dist/stratumc-snapshot.cjs",
      "dist/stratumc.cjs",
      "dist/ui-reader.cjs",
      "dist/ui.cjs",
      "package.json",
      "scripts/build.mjs",
    ]);
    expect(files.filter((f) => f.startsWith("docs/"))).toEqual(docs.sort());
  });

  it("points help and explain to the docs installed with it, and to the web", () => {
    const bin = join(installed, "bin/stratumc.cjs");
    const explain = spawnSync(bin, ["explain", "SPEC-STEP-MODE"], { encoding: "utf8" });
    expect(explain.status, explain.stderr).toBe(0);
    const rules = join(installed, "docs/reference/rules.md");
    expect(explain.stdout).toContain(
      `\nDocumentation: ${rules} (section SPEC-STEP-MODE), installed with stratumc\n` +
        "               https://github.com/stratumc/stratumc/blob/main/docs/reference/rules.md#spec-step-mode\n",
    );
    expect(readFileSync(rules, "utf8")).toContain('<a id="spec-step-mode"></a>');
    const help = spawnSync(bin, ["--help"], { encoding: "utf8" });
    expect(help.stdout).toContain(
      `\nDocumentation: ${join(installed, "docs/README.md")}, installed with stratumc\n`,
    );
  });

  it("is publishable: not private, MIT with its LICENSE, repository, bugs and homepage", () => {
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe("MIT");
    const licence = readFileSync(join(REPO, "LICENSE"), "utf8");
    expect(licence).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the stratumc authors\n/);
    expect(manifest.repository).toEqual({ type: "git", url: "git+https://github.com/stratumc/stratumc.git" });
    expect(manifest.bugs?.url).toBe("https://github.com/stratumc/stratumc/issues");
    expect(manifest.homepage).toBe("https://github.com/stratumc/stratumc#readme");
    expect(manifest.keywords).toContain("pre-commit");
  });

  it("has no runtime dependency: every package the bundles use is inside them", () => {
    expect(manifest.dependencies ?? {}).toEqual({});
    const builtins = new Set(builtinModules);
    for (const bundle of files.filter((f) => f.endsWith(".cjs"))) {
      const text = readFileSync(join(installed, bundle), "utf8");
      // Code calls, not the source text ajv generates (`'require("ajv/dist/runtime/uri")'`).
      for (const [, spec] of text.matchAll(/(?<![`'"\w.$])(?:require|import)\("([^"]+)"\)/g)) {
        if (spec === undefined) continue;
        if (CHECK_ONLY_BUNDLES.has(bundle) && spec.startsWith(NEVER_LOADED)) {
          continue; // what the check-only program hands to the whole CLI (scripts/build.mjs checkOnly)
        }
        if (spec.startsWith(".")) {
          const target = relative(installed, join(installed, bundle, "..", spec));
          expect(files, `${bundle} loads ${spec}`).toContain(target);
        } else {
          expect(builtins.has(spec.replace(/^node:/, "")), `${bundle} requires ${spec}`).toBe(true);
        }
      }
    }
  });

  it("postinstall builds the startup snapshot from the shipped bundle, and only once", () => {
    const postinstall = () =>
      spawnSync(process.execPath, ["scripts/build.mjs", "--snapshot-only", "--if-missing"], {
        cwd: installed,
        encoding: "utf8",
        env: { ...process.env, STRATUMC_NO_SNAPSHOT: undefined },
      });
    const first = postinstall();
    expect(first.status, first.stderr).toBe(0);
    expect(existsSync(join(installed, "dist/stratumc.blob"))).toBe(process.platform !== "win32");
    expect(existsSync(join(installed, "dist/stratumc-check.blob"))).toBe(process.platform !== "win32");
    const second = postinstall();
    expect(second.status).toBe(0);
    expect(second.stderr).toBe("");
  });

  it("checks a spec with nothing but the packed files", () => {
    const r = spawnSync(join(installed, "bin/stratumc.cjs"), ["check", "examples/*.stratum.yaml"], {
      encoding: "utf8",
      cwd: REPO,
    });
    expect(r.stderr).toBe("");
    const examples = readdirSync(join(REPO, "examples")).filter((f) => f.endsWith(".stratum.yaml")).length;
    expect(r.stdout).toMatch(
      new RegExp(`^0 error\\(s\\), 0 warning\\(s\\) in ${examples} file\\(s\\)\\n$`, "m"),
    );
    expect(r.status).toBe(0);
  });

  it("fuzzes specs on worker threads with nothing but the packed files", () => {
    const examples = readdirSync(join(REPO, "examples"))
      .filter((f) => f.endsWith(".stratum.yaml"))
      .slice(0, 2)
      .map((f) => `examples/${f}`);
    const r = spawnSync(
      join(installed, "bin/stratumc.cjs"),
      ["fuzz", "--jobs", "2", "--runs", "3", "--format", "json", ...examples],
      { encoding: "utf8", cwd: REPO },
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).not.toContain("FUZZ-WORKER-FAILED");
    const report = JSON.parse(r.stdout) as { files: { file: string; runs: number }[] };
    expect(report.files.map((f) => [f.file, f.runs])).toEqual(examples.map((f) => [f, 3]));
  });

  it("reads a PostgreSQL store with nothing but the packed files: the client library is its own bundle", async () => {
    const postgres = await startPostgres();
    try {
      const url = postgres.createDatabase("packed");
      const bin = join(installed, "bin/stratumc.cjs");
      const listed = spawnSync(bin, ["query", "flows", "--store", url], { encoding: "utf8", cwd: REPO });
      expect(listed.stderr).toBe("");
      expect(listed).toMatchObject({ status: 0, stdout: "[]\n" });
      expect(
        postgres.psql("SELECT version FROM stratum.schema_version", new URL(url).pathname.slice(1)).trim(),
      ).toBe("1");
      const down = spawnSync(bin, ["query", "gates", "--store", "postgres://u:pw@127.0.0.1:1/x"], {
        encoding: "utf8",
      });
      expect(down.status).toBe(1);
      expect(down.stderr).toMatch(
        /^stratumc: cannot reach the flow store at postgres:\/\/u@127\.0\.0\.1:1\/x: /,
      );
    } finally {
      postgres.destroy();
    }
  });

  it("serves the web page from the packed files: `stratumc ui` loads its own bundle", async () => {
    const home = mkdtempSync(join(tmpdir(), "stratumc-packed-ui-"));
    const token = "packed-install-token-0123456789";
    const ui = await startUi(home, ["--token", token], {}, join(installed, "bin/stratumc.cjs"));
    try {
      const page = await fetch(`${ui.origin}/`, { headers: { Authorization: `Bearer ${token}` } });
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<script src="\/app\.js"/);
      const script = await fetch(`${ui.origin}/app.js`, { headers: { Authorization: `Bearer ${token}` } });
      expect((await script.text()).length).toBeGreaterThan(1000);
    } finally {
      expect(await ui.stop()).toBe(0);
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("postinstall in a fresh checkout (no bundle yet) does nothing and says nothing", () => {
    const checkout = mkdtempSync(join(tmpdir(), "stratumc-checkout-"));
    try {
      cpSync(join(REPO, "scripts/build.mjs"), join(checkout, "scripts/build.mjs"));
      const r = spawnSync(process.execPath, ["scripts/build.mjs", "--snapshot-only", "--if-missing"], {
        cwd: checkout,
        encoding: "utf8",
      });
      expect(r.status).toBe(0);
      expect(r.stderr).toBe("");
      expect(existsSync(join(checkout, "dist/stratumc.blob"))).toBe(false);
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  });
});

// Runs the real build and the real `npm pack` in a copy of the repository (sources and the
// repository's node_modules, not its dist/, which other tests read while this one builds).
describe("packing", () => {
  let copy: string;

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), "stratumc-pack-"));
    const skip = new Set(["node_modules", "dist", ".git", "test"]);
    cpSync(REPO, join(copy, "repo"), {
      recursive: true,
      filter: (source) => {
        const top = relative(REPO, source).split(/[\\/]/)[0] ?? "";
        return !skip.has(top) && !top.startsWith(".stratum-test-");
      },
    });
    symlinkSync(join(REPO, "node_modules"), join(copy, "repo/node_modules"), "dir");
  });

  afterAll(() => {
    rmSync(copy, { recursive: true, force: true });
  });

  it("the build prints nothing on stdout", () => {
    const r = spawnSync(process.execPath, ["scripts/build.mjs"], {
      cwd: join(copy, "repo"),
      encoding: "utf8",
      env: cleanEnv({ STRATUMC_NO_SNAPSHOT: "1" }),
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    expect(existsSync(join(copy, "repo/dist/stratumc.cjs"))).toBe(true);
  }, 180_000);

  it("npm pack runs prepare and prints the tarball name alone on stdout, without the snapshot", () => {
    mkdirSync(join(copy, "out"));
    const r = spawnSync("npm", ["pack", "--pack-destination", join(copy, "out")], {
      cwd: join(copy, "repo"),
      encoding: "utf8",
      env: cleanEnv(),
    });
    expect(r.status, r.stderr).toBe(0);
    const tarball = `${manifest.name}-${manifest.version}.tgz`;
    expect(r.stdout).toBe(`${tarball}\n`);
    expect(existsSync(join(copy, "out", tarball))).toBe(true);
    // The blob is never packed: `prepare` under `npm pack` does not spend time building it.
    expect(existsSync(join(copy, "repo/dist/stratumc.blob"))).toBe(false);
  }, 180_000);

  it("without the devDependencies the build fails and says why", () => {
    const bare = join(copy, "bare");
    mkdirSync(join(bare, "scripts"), { recursive: true });
    cpSync(join(REPO, "scripts/build.mjs"), join(bare, "scripts/build.mjs"));
    const r = spawnSync(process.execPath, ["scripts/build.mjs"], {
      cwd: bare,
      encoding: "utf8",
      env: cleanEnv(),
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("building the bundles needs the devDependencies (esbuild is missing)");
  });
});
