// Each layer's entry point (`<layer>/index.ts`) only re-exports, and package.json declares the
// modules free of side effects, so importing one name of an entry point costs a bundle only the
// modules behind that name. The proof: the `check` snapshot, whose commands import the checker's
// entry point (which also re-exports the language services), carries none of the layers and
// folders `check` does not run.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { CONFIG, REPO } from "./cruise";

const ENTRY_POINTS = [
  "stdlib",
  "grammar",
  "checker",
  "interpreter",
  "fuzzer",
  "host",
  "lsp",
  "mcp",
  "ui",
  "install",
];

/** The statements of a file without its comments, split at semicolons. */
function statements(text: string): string[] {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "")
    .split(";")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

describe("entry points", () => {
  it("every layer the front ends use has one, and it only re-exports", () => {
    for (const layer of ENTRY_POINTS) {
      const text = readFileSync(join(REPO, layer, "index.ts"), "utf8");
      for (const s of statements(text))
        expect(s, `${layer}/index.ts`).toMatch(/^export (type )?\{[^}]*\} from "\.\/[^"]+"$/s);
    }
    expect(CONFIG.ENTRY_POINT_USERS).toEqual(
      expect.arrayContaining(["cli", "lsp", "mcp", "ui", "install", "fuzzer", "host"]),
    );
  });

  it("package.json declares the modules free of side effects", () => {
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { sideEffects?: unknown };
    expect(pkg.sideEffects).toBe(false);
  });

  it("the check snapshot carries nothing of the layers `check` does not run", async () => {
    const result = await build({
      absWorkingDir: REPO,
      entryPoints: ["scripts/snapshot-check-entry.ts"],
      bundle: true,
      platform: "node",
      format: "cjs",
      write: false,
      metafile: true,
      logLevel: "silent",
      define: { STRATUMC_BUNDLED: "true" },
      plugins: [
        {
          // As scripts/build.mjs's checkOnly(): the fuzzer and the MCP commands stay outside.
          name: "check-only",
          setup(b) {
            b.onResolve({ filter: /^\.\.\/fuzzer\/index$|^\.\/mcp-commands\/dispatch$/ }, (args) => ({
              path: `outside/${args.path}`,
              external: true,
            }));
          },
        },
      ],
    });
    // What the bundle carries: the inputs with code in the output (tree-shaken modules have none).
    const output = Object.values(result.metafile.outputs)[0];
    const inputs = Object.entries(output?.inputs ?? {}).flatMap(([p, i]) => (i.bytesInOutput > 0 ? [p] : []));
    expect(inputs.filter((p) => p.startsWith("checker/check-spec"))).toHaveLength(1);
    const unwanted = /^(interpreter|lsp|mcp|fuzzer)\/|^checker\/(services|incremental)\//;
    expect(inputs.filter((p) => unwanted.test(p))).toEqual([]);
  }, 60_000);
});
