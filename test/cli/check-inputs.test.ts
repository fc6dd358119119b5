// `stratumc check` argument expansion (cli/check/inputs.ts) and reading specs as UTF-8
// (cli/check/read-spec.ts).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Input, resolveInputs } from "../../cli/check/inputs";
import { decodeSpec, firstInvalidUtf8, readSpecFile } from "../../cli/check/read-spec";
import { UsageError } from "../../cli/exit-codes";

let root = "";

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "stratumc-inputs-"));
  const files = [
    "b.stratum.yaml",
    "a.stratum.yaml",
    "notes.yaml",
    "sub/deep/c.stratum.yaml",
    "sub/d.stratum.yml",
    "node_modules/pkg/x.stratum.yaml",
    ".hidden/y.stratum.yaml",
    "sub/.z.stratum.yaml",
  ];
  for (const f of files) {
    mkdirSync(join(root, f, ".."), { recursive: true });
    writeFileSync(join(root, f), "version: '0.2'\n");
  }
  symlinkSync(join(root, "sub"), join(root, "linked-dir"));
  symlinkSync(join(root, "a.stratum.yaml"), join(root, "link.stratum.yaml"));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const shown = (inputs: readonly Input[]) =>
  inputs.map((i) => (i.kind === "unreadable" ? `!${i.display}` : i.display));

describe("resolveInputs", () => {
  it("walks the current directory by default: sorted, recursive, node_modules and dot-dirs skipped", () => {
    expect(shown(resolveInputs([], root))).toEqual([
      "a.stratum.yaml",
      "b.stratum.yaml",
      "link.stratum.yaml",
      "sub/.z.stratum.yaml",
      "sub/d.stratum.yml",
      "sub/deep/c.stratum.yaml",
    ]);
  });

  it("walks an explicitly named directory even when its name would be skipped below", () => {
    expect(shown(resolveInputs(["node_modules", ".hidden"], root))).toEqual([
      ".hidden/y.stratum.yaml",
      "node_modules/pkg/x.stratum.yaml",
    ]);
  });

  it("takes files as given (any name), removes repeats and sorts everything", () => {
    expect(
      shown(resolveInputs(["notes.yaml", "sub", "./b.stratum.yaml", "b.stratum.yaml", "-"], root)),
    ).toEqual([
      "<stdin>",
      "b.stratum.yaml",
      "notes.yaml",
      "sub/.z.stratum.yaml",
      "sub/d.stratum.yml",
      "sub/deep/c.stratum.yaml",
    ]);
  });

  it("expands globs (without dot files and node_modules unless named)", () => {
    expect(shown(resolveInputs(["**/*.stratum.yaml"], root))).toEqual([
      "a.stratum.yaml",
      "b.stratum.yaml",
      "link.stratum.yaml",
      "linked-dir/deep/c.stratum.yaml",
      "sub/deep/c.stratum.yaml",
    ]);
    expect(shown(resolveInputs(["node_modules/**/*.yaml"], root))).toEqual([
      "node_modules/pkg/x.stratum.yaml",
    ]);
    expect(shown(resolveInputs(["sub/*.{yml,yaml}"], root))).toEqual(["sub/d.stratum.yml"]);
  });

  it("rejects a glob that matches nothing, and keeps a missing plain path for IO-READ", () => {
    expect(() => resolveInputs(["nothing/**/*.yaml"], root)).toThrow(UsageError);
    expect(() => resolveInputs(["nothing/**/*.yaml"], root)).toThrow("no files match 'nothing/**/*.yaml'");
    expect(resolveInputs(["missing.stratum.yaml"], root)).toEqual([
      { kind: "file", display: "missing.stratum.yaml", path: join(root, "missing.stratum.yaml") },
    ]);
  });

  it("shows paths outside the working directory relative to it", () => {
    expect(shown(resolveInputs([join(root, "a.stratum.yaml")], join(root, "sub")))).toEqual([
      "../a.stratum.yaml",
    ]);
  });

  it.skipIf(process.getuid?.() === 0)(
    "reports a directory that cannot be listed (not as root: root reads anything)",
    () => {
      const locked = join(root, "locked");
      mkdirSync(locked);
      chmodSync(locked, 0o000);
      try {
        expect(shown(resolveInputs(["locked"], root))).toEqual(["!locked"]);
      } finally {
        chmodSync(locked, 0o755);
      }
    },
  );
});

describe("reading specs", () => {
  it("reads UTF-8 and drops a byte order mark", () => {
    expect(decodeSpec(new TextEncoder().encode("\ufeffa: é\n"))).toEqual({ ok: true, text: "a: é\n" });
  });

  it("refuses bytes that are not UTF-8 and names the line and column of the first bad byte", () => {
    const bytes = new Uint8Array([...new TextEncoder().encode("a: 1\r\nb: 日x"), 0xff, 0x41]);
    expect(decodeSpec(bytes)).toEqual({
      ok: false,
      reason: "not valid UTF-8 (byte 0xff at line 2, column 6)",
      line: 2,
      column: 6,
    });
  });

  it("finds the first invalid byte exactly as a strict decoder rejects (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), (bytes) => {
        const bad = firstInvalidUtf8(bytes);
        let strictOk = true;
        try {
          new TextDecoder("utf-8", { fatal: true }).decode(bytes);
        } catch {
          strictOk = false;
        }
        expect(bad === bytes.length).toBe(strictOk);
        // Everything before the reported byte decodes strictly.
        expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, bad))).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });

  it("turns file-system errors into short reasons", () => {
    expect(readSpecFile(join(root, "missing.yaml"))).toEqual({
      ok: false,
      reason: "file not found",
      line: 1,
      column: 1,
    });
    expect(readSpecFile(join(root, "sub"))).toEqual({
      ok: false,
      reason: "is a directory",
      line: 1,
      column: 1,
    });
  });
});
