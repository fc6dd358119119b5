// The layering of ARCHITECTURE.md is enforced by `npm run check`: biome.json's overrides give each
// layer folder a noRestrictedImports rule naming the folders it must not import from. This test
// proves the rule bites: in a scratch tree with the repository's biome.json, every forbidden import
// is one error in the importing file, and every allowed one is none. (The real tree passing is
// `npm run check` itself.)
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = join(__dirname, "../..");
const BIOME = join(REPO, "node_modules/.bin/biome");

/** Which folders each layer may import from (besides itself); every other layer folder is forbidden. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  stdlib: [],
  grammar: ["stdlib"],
  checker: ["stdlib", "grammar"],
  interpreter: ["stdlib", "grammar", "checker"],
  fuzzer: ["stdlib", "grammar", "checker", "interpreter"],
  host: ["stdlib", "grammar", "checker", "interpreter"],
  lsp: ["stdlib", "grammar", "checker", "interpreter"],
  mcp: ["stdlib", "grammar", "checker", "interpreter", "fuzzer"],
};
const FOLDERS = ["stdlib", "grammar", "checker", "interpreter", "fuzzer", "host", "cli", "lsp", "mcp"];

interface BiomeReport {
  readonly diagnostics: readonly {
    readonly category: string;
    readonly location: { readonly path: string };
  }[];
}

let dir: string;
let report: BiomeReport;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "stratumc-layers-"));
  writeFileSync(join(dir, "biome.json"), readFileSync(join(REPO, "biome.json")));
  for (const [layer, allowed] of Object.entries(ALLOWED)) {
    mkdirSync(join(dir, layer), { recursive: true });
    for (const target of FOLDERS) {
      if (target === layer) continue;
      const kind = allowed.includes(target) ? "allowed" : "forbidden";
      // One level deeper too, as most imports are written (`../../checker/…`).
      writeFileSync(join(dir, layer, `${kind}-${target}.ts`), `export { a } from "../${target}/x";\n`);
      mkdirSync(join(dir, layer, "sub"), { recursive: true });
      writeFileSync(
        join(dir, layer, "sub", `${kind}-${target}.ts`),
        `export { a } from "../../${target}/y/z";\n`,
      );
    }
  }
  const run = spawnSync(
    BIOME,
    ["lint", "--vcs-enabled=false", "--reporter=json", "--max-diagnostics=none", "."],
    {
      cwd: dir,
      encoding: "utf8",
    },
  );
  report = JSON.parse(run.stdout) as BiomeReport;
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("layering is enforced by npm run check", () => {
  it("every forbidden import is reported once, in the file that makes it, and no allowed one", () => {
    const flagged = report.diagnostics
      .filter((d) => d.category === "lint/style/noRestrictedImports")
      .map((d) => d.location.path.replaceAll("\\", "/"))
      .sort();
    const expected: string[] = [];
    for (const [layer, allowed] of Object.entries(ALLOWED)) {
      for (const target of FOLDERS) {
        if (target === layer || allowed.includes(target)) continue;
        expected.push(`${layer}/forbidden-${target}.ts`, `${layer}/sub/forbidden-${target}.ts`);
      }
    }
    expect(flagged).toEqual(expected.sort());
    expect(report.diagnostics.filter((d) => d.category !== "lint/style/noRestrictedImports")).toEqual([]);
  });
});
