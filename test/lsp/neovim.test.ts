// End to end with a real editor: headless Neovim (Debian's 0.7.2) starts `stratumc lsp`, attaches
// it to a broken spec, and reports the diagnostics, a completion and a hover. Needs the build
// (`npm run build`) and `nvim`; without nvim the test is skipped with a reason, except in CI
// (CI=true), where a missing nvim is a failure (.ci/run installs it).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/check-spec";
import { cursors } from "./support/cursor";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = join(root, "bin/stratumc.cjs");
const script = join(root, "test/lsp/nvim/attach.lua");
const nvimFound = spawnSync("nvim", ["--version"], { encoding: "utf8" }).status === 0;
const inCi = process.env.CI === "true";

// Two markers: the completion position (inside `depends_on: [...]`), the hover position (on the builtin `len`).
const MARKED = `version: "0.2"
flows:
  ship:
    input:
      branch: { type: string }
    steps:
      - id: implement
        intent: "Implement the change on the branch"
        inputs:
          branch: "$.input.branch"
      - id: test
        intent: "Run the test suite"
        depends_on: [implment, <|>]
      - id: release
        intent: "Tag and publish the release"
        inputs:
          commit: "$.steps.implement.output"
        depends_on: [test]
        ensure:
          - "le<|>n(result) > 0"
`;

const dir = mkdtempSync(join(tmpdir(), "stratumc-nvim-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!nvimFound && !inCi)(
  "Neovim 0.7.2 with stratumc lsp (skipped: nvim is not installed)",
  () => {
    it("shows the checker's diagnostics, a completion and a hover", () => {
      expect(nvimFound, "nvim is required in CI (.ci/run installs it)").toBe(true);
      const { text, positions } = cursors(MARKED);
      const spec = join(dir, "broken.stratum.yaml");
      writeFileSync(spec, text);
      const [complete, hover] = positions;
      const run = spawnSync("nvim", ["--headless", "--clean", "-u", "NONE", "-c", `luafile ${script}`], {
        encoding: "utf8",
        timeout: 60_000,
        env: {
          ...process.env,
          STRATUMC_BIN: bin,
          STRATUMC_SPEC: spec,
          COMPLETE_AT: `${complete!.line},${complete!.character}`,
          HOVER_AT: `${hover!.line},${hover!.character}`,
        },
      });
      const line = run.stdout.split("\n").find((l) => l.startsWith("{"));
      expect(line, `nvim printed no result; stderr: ${run.stderr}`).toBeDefined();
      const got = JSON.parse(line!) as {
        diagnostics: {
          lnum: number;
          col: number;
          end_col: number;
          code: string;
          message: string;
          source: string;
        }[];
        completion: string[];
        completion_error: string | null;
        hover: string | null;
        hover_error: string | null;
      };
      // The spec is ASCII, so Neovim's byte columns are the checker's columns minus one.
      const expected = checkSpec(text).diagnostics;
      expect(got.diagnostics).toEqual(
        expected.map((d) => ({
          lnum: d.line - 1,
          col: d.column - 1,
          end_lnum: d.end_line - 1,
          end_col: d.end_column - 1,
          severity: d.severity === "error" ? 1 : d.severity === "warning" ? 2 : 3,
          message: d.suggestion === undefined ? d.message : `${d.message}\nhelp: ${d.suggestion}`,
          source: "stratumc",
          code: d.code,
        })),
      );
      expect(got.diagnostics.map((d) => [d.code, d.lnum, d.col])).toContainEqual([
        "SPEC-DEPENDS-ON-UNKNOWN",
        12,
        21,
      ]);
      expect(got.completion, got.completion_error ?? "").toContain("implement");
      expect(got.hover, got.hover_error ?? "").toContain("len(");
    });
  },
);
