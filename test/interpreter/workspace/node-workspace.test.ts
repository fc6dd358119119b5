// host/node-workspace.ts against a real temporary directory.
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodeWorkspace, realpathLenient } from "../../../host/node-workspace";

const root = realpathSync(mkdtempSync(join(tmpdir(), "stratum-ws-")));
mkdirSync(join(root, "dir"));
writeFileSync(join(root, "dir", "a.md"), "# A");
symlinkSync(join(root, "dir"), join(root, "link"));
symlinkSync(join(root, "dir", "a.md"), join(root, "dir", "b.md"));
symlinkSync(join(root, "nowhere"), join(root, "dir", "broken.md"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("nodeWorkspace", () => {
  it("lists entries, following symbolic links", () => {
    const listing = nodeWorkspace.readDir(join(root, "dir"));
    expect(listing.ok && [...listing.value].sort((x, y) => (x.name < y.name ? -1 : 1))).toEqual([
      { name: "a.md", isFile: true, isDirectory: false },
      { name: "b.md", isFile: true, isDirectory: false },
      { name: "broken.md", isFile: false, isDirectory: false },
    ]);
    expect(nodeWorkspace.readDir(join(root, "missing"))).toEqual({ ok: false, reason: "file not found" });
    expect(nodeWorkspace.readDir(join(root, "dir", "a.md"))).toEqual({
      ok: false,
      reason: "not a directory",
    });
  });

  it("isDirectory follows links", () => {
    expect(nodeWorkspace.isDirectory(join(root, "link"))).toBe(true);
    expect(nodeWorkspace.isDirectory(join(root, "dir", "a.md"))).toBe(false);
    expect(nodeWorkspace.isDirectory(join(root, "missing"))).toBe(false);
  });

  it("reads files and reports failures", () => {
    const read = nodeWorkspace.readFile(join(root, "link", "b.md"));
    expect(read.ok && new TextDecoder().decode(read.value)).toBe("# A");
    expect(nodeWorkspace.readFile(join(root, "dir"))).toEqual({ ok: false, reason: "is a directory" });
    expect(nodeWorkspace.readFile(join(root, "dir", "broken.md"))).toEqual({
      ok: false,
      reason: "file not found",
    });
  });

  it("writes files, creating parent directories", () => {
    const path = join(root, "new", "deeper", "f.json");
    expect(nodeWorkspace.writeFile(path, "{}\u00e9")).toEqual({ ok: true, value: undefined });
    expect(readFileSync(path, "utf8")).toBe("{}\u00e9");
    expect(nodeWorkspace.writeFile(join(root, "dir", "a.md", "x"), "")).toEqual({
      ok: false,
      reason: "not a directory",
    });
  });

  it("realpath resolves links in the existing prefix and applies the rest as text", () => {
    expect(nodeWorkspace.realpath(join(root, "link", "a.md"))).toBe(join(root, "dir", "a.md"));
    expect(realpathLenient(join(root, "link", "missing", "..", "x", ".", "y"))).toBe(
      join(root, "dir", "x", "y"),
    );
    expect(realpathLenient("/definitely-missing-root/a")).toBe("/definitely-missing-root/a");
  });
});
