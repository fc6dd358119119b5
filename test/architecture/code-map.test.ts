// ARCHITECTURE.md's code map and .dependency-cruiser.cjs say the same: every row with something in
// its "must not depend on" column has a rule (CODE_MAP), with the same items, and every rule has
// its row. (layers.test.ts proves each rule forbids what it says.)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG, REPO } from "./cruise";

/** The code map's rows: first cell → last cell (a `\|` inside a cell is text, not a separator). */
function codeMapRows(): Map<string, string> {
  const text = readFileSync(join(REPO, "ARCHITECTURE.md"), "utf8");
  const section = text.slice(
    text.indexOf("## Code map"),
    text.indexOf("\n## ", text.indexOf("## Code map") + 1),
  );
  const rows = new Map<string, string>();
  for (const line of section.split("\n")) {
    if (!line.startsWith("| `")) continue;
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
    rows.set(cells[0]!, cells[cells.length - 1]!);
  }
  return rows;
}

/** A column's items, in any order: "a, b and c; d" → {a, b, c, d}. */
const items = (column: string): Set<string> =>
  new Set(
    column
      .split(/[,;]\s*|\s+and\s+/)
      .map((s) => s.trim())
      .filter((s) => s !== ""),
  );

describe("the code map's 'must not depend on' column", () => {
  const rows = codeMapRows();

  it("is parsed from ARCHITECTURE.md", () => {
    expect(rows.size).toBeGreaterThan(20);
  });

  it("has, for every rule of CODE_MAP, its row with the same items", () => {
    const differing = CONFIG.CODE_MAP.filter((rule) => {
      const column = rows.get(rule.folder);
      const want = items(rule.mustNotDependOn);
      const have = items(column ?? "");
      return column === undefined || have.size !== want.size || [...want].some((w) => !have.has(w));
    }).map((rule) => ({
      folder: rule.folder,
      architecture: rows.get(rule.folder),
      rule: rule.mustNotDependOn,
    }));
    expect(differing).toEqual([]);
  });

  it("has a rule for every row that forbids something", () => {
    const ruled = new Set(CONFIG.CODE_MAP.map((r) => r.folder));
    const unruled = [...rows].filter(([folder, column]) => column !== "—" && !ruled.has(folder));
    expect(unruled).toEqual([]);
  });
});
