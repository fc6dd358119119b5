// file_exists / file_contains against a real temporary directory (docs/reference/language.md §10.9 "Working root").
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeFileSystem } from "../../../host/node-fs";
import { callBuiltin } from "../../../stdlib/builtins/attributes";
import { normalizeAbsolute, resolveInRoot } from "../../../stdlib/builtins/file-access";
import { FILE_CONTAINS_MAX_BYTES, type FileAccess, type HostFileSystem } from "../../../stdlib/files";
import type { PyValue } from "../../../stdlib/values/value";
import { env, outcome } from "./support";

let base: string;
let root: string;
let outside: string;
const reads: string[] = [];

/** The Node file system, recording which files are read. */
const recordingFs: HostFileSystem = {
  realpath: (p) => nodeFileSystem.realpath(p),
  stat: (p) => nodeFileSystem.stat(p),
  readFile: (p, max) => {
    reads.push(p);
    return nodeFileSystem.readFile(p, max);
  },
};

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "stratum-files-")));
  root = path.join(base, "root");
  outside = path.join(base, "outside");
  fs.mkdirSync(path.join(root, "sub"), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, "a.txt"), "hello world\nTODO: fix\n");
  fs.writeFileSync(path.join(root, "sub", "b.txt"), "bee");
  fs.writeFileSync(path.join(outside, "secret.txt"), "secret");
  fs.writeFileSync(path.join(base, "rootsibling.txt"), "sibling");
  fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "escape.txt"));
  fs.symlinkSync(outside, path.join(root, "escape-dir"));
  fs.symlinkSync(path.join(root, "sub", "b.txt"), path.join(root, "inside-link.txt"));
  fs.writeFileSync(path.join(root, "big.txt"), Buffer.alloc(11 * 1024 * 1024, 0x61));
  const exact = Buffer.alloc(FILE_CONTAINS_MAX_BYTES, 0x62);
  exact.write("needle-at-end", FILE_CONTAINS_MAX_BYTES - 13);
  fs.writeFileSync(path.join(root, "exact.txt"), exact);
  fs.writeFileSync(path.join(root, "bad.bin"), Buffer.from([0x61, 0xff, 0x62, 0xe2, 0x82, 0x63, 0xef, 0xbb]));
  fs.writeFileSync(path.join(root, "bom.txt"), Buffer.from([0xef, 0xbb, 0xbf, 0x78]));
});

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

const access = (): FileAccess => ({ root, fs: recordingFs });
const exists = (p: PyValue, files: FileAccess | null = access()) =>
  outcome(() => callBuiltin("file_exists", [p], null, env(files)));
const contains = (p: PyValue, needle: PyValue, files: FileAccess | null = access()) =>
  outcome(() => callBuiltin("file_contains", [p, needle], null, env(files)));

describe("file_exists", () => {
  it("is True for regular files inside the root, relative or absolute", () => {
    expect(exists("a.txt")).toBe("True");
    expect(exists("./sub/b.txt")).toBe("True");
    expect(exists("sub/../a.txt")).toBe("True");
    expect(exists(path.join(root, "a.txt"))).toBe("True");
    expect(exists("inside-link.txt")).toBe("True");
  });
  it("is False for directories and missing files", () => {
    expect(exists("sub")).toBe("False");
    expect(exists(".")).toBe("False");
    expect(exists("missing.txt")).toBe("False");
    expect(exists("")).toBe("False");
  });
  it("is False for anything resolving outside the root", () => {
    expect(exists("../outside/secret.txt")).toBe("False");
    expect(exists("../rootsibling.txt")).toBe("False");
    expect(exists(path.join(outside, "secret.txt"))).toBe("False");
    expect(exists("/etc/hostname")).toBe("False");
    expect(exists("escape.txt")).toBe("False");
    expect(exists("escape-dir/secret.txt")).toBe("False");
  });
  it("does not confuse a sibling directory sharing the root's prefix", () => {
    expect(resolveInRoot({ root, fs: nodeFileSystem }, `${root}sibling.txt`)).toBeNull();
  });
  it("requires a str path", () => {
    expect(exists(null)).toBe("TypeError: file_exists() argument must be str, not NoneType");
    expect(exists(1)).toBe("TypeError: file_exists() argument must be str, not int");
    expect(exists(null, null)).toBe("TypeError: file_exists() argument must be str, not NoneType");
  });
  it("sees no files without a working root", () => {
    expect(exists("a.txt", null)).toBe("False");
  });
});

describe("file_contains", () => {
  it("searches the UTF-8 text", () => {
    expect(contains("a.txt", "TODO")).toBe("True");
    expect(contains("a.txt", "world\nTODO")).toBe("True");
    expect(contains("a.txt", "todo")).toBe("False");
    expect(contains("a.txt", "")).toBe("True");
    expect(contains("inside-link.txt", "bee")).toBe("True");
  });
  it("decodes invalid UTF-8 with U+FFFD and keeps a BOM", () => {
    expect(contains("bad.bin", "a\uFFFDb\uFFFDc\uFFFD")).toBe("True");
    expect(contains("bom.txt", "\uFEFFx")).toBe("True");
  });
  it("is False for files larger than 10 MiB, True up to exactly 10 MiB", () => {
    reads.length = 0;
    expect(contains("big.txt", "a")).toBe("False");
    expect(reads).toEqual([]);
    expect(contains("exact.txt", "needle-at-end")).toBe("True");
  });
  it("is False without reading for paths outside the root, directories and missing files", () => {
    reads.length = 0;
    expect(contains("escape.txt", "secret")).toBe("False");
    expect(contains("../outside/secret.txt", "secret")).toBe("False");
    expect(contains(path.join(outside, "secret.txt"), "secret")).toBe("False");
    expect(contains("escape-dir/secret.txt", "secret")).toBe("False");
    expect(contains("sub", "x")).toBe("False");
    expect(contains("nope.txt", "x")).toBe("False");
    expect(reads).toEqual([]);
  });
  it("checks the needle type only when the file was readable", () => {
    expect(contains("a.txt", 1)).toBe("TypeError: 'in <string>' requires string as left operand, not int");
    expect(contains("a.txt", null)).toBe(
      "TypeError: 'in <string>' requires string as left operand, not NoneType",
    );
    expect(contains("missing.txt", 1)).toBe("False");
    expect(contains("a.txt", 1, null)).toBe("False");
  });
  it("requires a str path", () => {
    expect(contains(["a.txt"], "x")).toBe("TypeError: file_contains() argument must be str, not list");
  });
  it("charges one budget step per 4096 bytes read", () => {
    const e = env(access());
    callBuiltin("file_contains", ["exact.txt", "x"], null, e);
    expect(e.budget.spent).toBe(FILE_CONTAINS_MAX_BYTES / 4096);
    const small = env(access(), 2);
    expect(outcome(() => callBuiltin("file_contains", ["exact.txt", "x"], null, small))).toMatch(
      /^BudgetExceeded/,
    );
  });
});

describe("path normalisation", () => {
  it("removes dots, parent segments and repeated slashes", () => {
    expect(normalizeAbsolute("/a/./b//c/../d")).toBe("/a/b/d");
    expect(normalizeAbsolute("/../..")).toBe("/");
    expect(normalizeAbsolute("/a/b/")).toBe("/a/b");
  });
  it("accepts the root itself only as a directory (never a regular file)", () => {
    expect(resolveInRoot({ root, fs: nodeFileSystem }, root)).toBe(root);
    expect(exists(root)).toBe("False");
  });
});

describe("nodeFileSystem", () => {
  it("reads at most maxBytes bytes", () => {
    const bytes = nodeFileSystem.readFile(path.join(root, "a.txt"), 5);
    expect(Buffer.from(bytes ?? []).toString()).toBe("hello");
  });
  it("returns null for missing paths", () => {
    expect(nodeFileSystem.readFile(path.join(root, "nope"), 10)).toBeNull();
    expect(nodeFileSystem.stat(path.join(root, "nope"))).toBeNull();
    expect(nodeFileSystem.realpath(path.join(root, "nope"))).toBeNull();
  });
  it("resolves symlinks and reports sizes", () => {
    expect(nodeFileSystem.realpath(path.join(root, "escape.txt"))).toBe(path.join(outside, "secret.txt"));
    expect(nodeFileSystem.stat(path.join(root, "sub", "b.txt"))).toEqual({ isFile: true, size: 3 });
  });
});
