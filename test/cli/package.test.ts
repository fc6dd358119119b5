// The npm package (what `npm pack` ships, and so what the pre-commit framework and `npm install -g`
// install): exactly the launchers, the bundles and the snapshot builder, and it runs on its own —
// without the repository's sources or node_modules — after its postinstall step.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundle, REPO } from "./run-cli";

interface PackedFile {
  readonly path: string;
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
  });

  afterAll(() => {
    rmSync(installed, { recursive: true, force: true });
  });

  it("ships the launchers, the bundles and the snapshot builder, nothing else", () => {
    expect(files).toEqual([
      ".pre-commit-hooks.yaml",
      "README.md",
      "bin/stratum-mcp.cjs",
      "bin/stratumc.cjs",
      "dist/lsp.cjs",
      "dist/mcp-client.cjs",
      "dist/mcp.cjs",
      "dist/stratumc-snapshot.cjs",
      "dist/stratumc.cjs",
      "package.json",
      "scripts/build.mjs",
    ]);
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
    expect(r.stdout).toMatch(/^0 error\(s\), 0 warning\(s\) in 8 file\(s\)\n$/m);
    expect(r.status).toBe(0);
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
