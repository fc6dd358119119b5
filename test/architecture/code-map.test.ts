// ARCHITECTURE.md's code map and .dependency-cruiser.cjs say the same: a layer's "imports" column
// is its LAYER_IMPORTS, every row with something in its "must not depend on" column has a rule
// (CODE_MAP) with the same items, and every rule has its row (layers.test.ts proves each rule
// forbids what it says). The map has a row for every top-level folder, and every path the page
// names exists.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG, PRODUCT_FOLDERS, REPO } from "./cruise";

const PAGE = readFileSync(join(REPO, "ARCHITECTURE.md"), "utf8");

interface Row {
  readonly imports: string;
  readonly mustNotDependOn: string;
}

/** The code map's rows by first cell (a `\|` inside a cell is text, not a separator). */
function codeMapRows(text: string): Map<string, Row> {
  const start = text.indexOf("## Code map");
  const section = text.slice(start, text.indexOf("\n## ", start + 1));
  const rows = new Map<string, Row>();
  for (const line of section.split("\n")) {
    if (!line.startsWith("| `")) continue;
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
    rows.set(cells[0] ?? "", { imports: cells[2] ?? "", mustNotDependOn: cells[cells.length - 1] ?? "" });
  }
  return rows;
}

/** A column's items, in any order: "a, b and c; d" → {a, b, c, d}; "—" → {}. */
const items = (column: string): Set<string> =>
  new Set(
    column
      .split(/[,;]\s*|\s+and\s+/)
      .map((s) => s.trim())
      .filter((s) => s !== "" && s !== "—"),
  );

const sameItems = (a: Set<string>, b: Set<string>): boolean =>
  a.size === b.size && [...a].every((x) => b.has(x));

/** The repository paths a text names in code spans: a token with a slash and no spaces or wildcards. */
function namedPaths(text: string): string[] {
  const paths = new Set<string>();
  for (const m of text.matchAll(/`([^`\s]+)`/g)) {
    const token = m[1] ?? "";
    if (!token.includes("/") || /[*<>$(){}:]|^\.\.?\/|^-/.test(token)) continue;
    paths.add(token.replace(/\/$/, ""));
  }
  return [...paths].sort();
}

/** The top-level folders of the repository (tracked files only, so build output is left out). */
function topLevelFolders(): string[] {
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: REPO,
    encoding: "utf8",
  }).split("\n");
  return [...new Set(files.filter((f) => f.includes("/")).map((f) => f.slice(0, f.indexOf("/"))))]
    .filter((d) => !d.startsWith(".") && existsSync(join(REPO, d)))
    .sort();
}

describe("the code map of ARCHITECTURE.md", () => {
  const rows = codeMapRows(PAGE);

  it("has a row for every top-level folder, and no row for a folder that does not exist", () => {
    const missing = topLevelFolders().filter((d) => !rows.has(`\`${d}/\``));
    const unknown = [...rows.keys()].filter((r) => !existsSync(join(REPO, r.replaceAll("`", ""))));
    expect({ missing, unknown }).toEqual({ missing: [], unknown: [] });
  });

  it("gives every layer exactly the imports of LAYER_IMPORTS, and nothing else an imports cell", () => {
    const differing = PRODUCT_FOLDERS.filter((layer) => {
      const row = rows.get(`\`${layer}/\``);
      return row === undefined || !sameItems(items(row.imports), new Set(CONFIG.LAYER_IMPORTS[layer]));
    });
    expect(differing).toEqual([]);
    const layerRows = new Set(PRODUCT_FOLDERS.map((l) => `\`${l}/\``));
    const others = [...rows].filter(([folder, row]) => !layerRows.has(folder) && row.imports !== "—");
    expect(others).toEqual([]);
  });

  it("has, for every rule of CODE_MAP, its row with the same items", () => {
    const differing = CONFIG.CODE_MAP.filter((rule) => {
      const row = rows.get(rule.folder);
      return row === undefined || !sameItems(items(row.mustNotDependOn), items(rule.mustNotDependOn));
    }).map((rule) => ({
      folder: rule.folder,
      architecture: rows.get(rule.folder),
      rule: rule.mustNotDependOn,
    }));
    expect(differing).toEqual([]);
  });

  it("has a rule for every row that forbids something", () => {
    const ruled = new Set(CONFIG.CODE_MAP.map((r) => r.folder));
    const unruled = [...rows].filter(([folder, row]) => row.mustNotDependOn !== "—" && !ruled.has(folder));
    expect(unruled).toEqual([]);
  });

  it("is parsed, cells split on unescaped bars only", () => {
    const parsed = codeMapRows("## Code map\n| `a/` | x \\| y | b, c | d and e |\n## Next\n| `z/` | | | |");
    expect([...parsed]).toEqual([["`a/`", { imports: "b, c", mustNotDependOn: "d and e" }]]);
    expect(items("everything but `x`, `y` and z; w")).toEqual(
      new Set(["everything but `x`", "`y`", "z", "w"]),
    );
  });
});

describe("ARCHITECTURE.md", () => {
  it("names only paths that exist", () => {
    const named = namedPaths(PAGE);
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((p) => !existsSync(join(REPO, p)))).toEqual([]);
  });

  it("finds the paths in code spans and leaves other code alone", () => {
    expect(namedPaths("`a/b.ts`, `c/`, `node -e 0`, `$.steps`, `(x/y)`, `../up`, `*.md/x`")).toEqual([
      "a/b.ts",
      "c",
    ]);
  });

  it("stays under 1,500 words", () => {
    const words = PAGE.replace(/<!--.*?-->/g, " ")
      .split(/\s+/)
      .filter((w) => w !== "").length;
    expect(words).toBeLessThan(1500);
  });

  it("states the core's no-I/O rule that .dependency-cruiser.cjs enforces", () => {
    expect(PAGE).toContain("The core imports no `node:` module");
    expect(CONFIG.forbidden.map((r) => r.name)).toContain("core-no-node-builtins");
  });
});
