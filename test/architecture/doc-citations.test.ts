// No comment points outside the repository. Every `§N` citation in the source
// (TypeScript, scripts, the hand-written docs) names a page of this repository — docs/reference/language.md,
// docs/reference/runtime.md, docs/reference/divergences.md, docs/design/concurrency-constructs.md or the recorded conformance data's README — and that page
// has a heading numbered N. Generated files and the generated docs (format.md, rules.md) are left
// out: their generators' citations are checked in the generators.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = join(__dirname, "../..");
/** The pages a citation may name, by the path written in source files (relative to the repository). */
const PAGES = [
  "docs/reference/language.md",
  "docs/reference/runtime.md",
  "docs/reference/divergences.md",
  "docs/design/concurrency-constructs.md",
  "test/conformance/recorded/README.md",
];
/** Inside docs/, the pages cite each other by file name (they are in reference/ and design/). */
const SIBLING = /(?:^|[^/\w])(language|runtime|divergences|concurrency-constructs)\.md §/;

function sectionNumbers(page: string): Set<string> {
  const numbers = new Set<string>();
  for (const line of readFileSync(join(REPO, page), "utf8").split("\n")) {
    const m = /^#+\s+([0-9]+(?:\.[0-9]+)*)\.?\s/.exec(line);
    if (m?.[1] !== undefined) numbers.add(m[1]);
  }
  return numbers;
}

function sourceFiles(): string[] {
  const listed = execFileSync(
    "git",
    [
      "ls-files",
      "--cached",
      "--others",
      "--exclude-standard",
      "*.ts",
      "*.mjs",
      "*.cjs",
      "*.py",
      "*.sh",
      "docs/*.md",
    ],
    { cwd: REPO, encoding: "utf8" },
  );
  return (
    listed
      .split("\n")
      .filter((f) => f !== "" && !f.includes("/generated/") && !f.endsWith(".generated.ts"))
      .filter((f) => f !== "docs/reference/format.md" && f !== "docs/reference/rules.md")
      .filter((f) => f !== "test/architecture/doc-citations.test.ts")
      // The reference's own tests, vendored verbatim: their `§N` cite the reference's pages.
      .filter((f) => !f.startsWith("test/conformance/reference-suite/vendored/"))
      .filter((f) => existsSync(join(REPO, f)))
  ); // deleted in the work tree, not yet committed
}

/** Every `§N` of a text with the page it names (null when none) and its line. */
function citations(text: string): { page: string | null; number: string; line: number }[] {
  const out: { page: string | null; number: string; line: number }[] = [];
  const pattern = /(?:([\w./-]+\.md) )?§ ?([0-9]+(?:\.[0-9]+)*)/g;
  for (const m of text.matchAll(pattern)) {
    const line = text.slice(0, m.index).split("\n").length;
    out.push({ page: m[1] ?? null, number: (m[2] ?? "").replace(/\.$/, ""), line });
  }
  return out;
}

describe("citations of the requirements", () => {
  const sections = new Map(PAGES.map((p) => [p, sectionNumbers(p)]));

  it("name a page of the repository with a section of that number", () => {
    const problems: string[] = [];
    for (const file of sourceFiles()) {
      const text = readFileSync(join(REPO, file), "utf8");
      if (!text.includes("§")) continue;
      for (const { page, number, line } of citations(text)) {
        const resolved =
          page === null
            ? null
            : file.startsWith("docs/") && SIBLING.test(`${page} §`)
              ? PAGES.find((p) => p.endsWith(`/${page.replace(/^.*\//, "")}`))
              : page.replace(/^(\.\.\/)+/, "");
        const known = resolved == null ? undefined : sections.get(resolved);
        if (known === undefined) problems.push(`${file}:${line}: §${number} names no page of the repository`);
        else if (!known.has(number)) problems.push(`${file}:${line}: ${resolved} has no section ${number}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("finds a citation without a page, and one of a section that does not exist", () => {
    const found = citations(
      "see (§10.7.2) and docs/reference/runtime.md §99.1 and docs/reference/language.md §10.7.2",
    );
    expect(found.map((c) => [c.page, c.number])).toEqual([
      [null, "10.7.2"],
      ["docs/reference/runtime.md", "99.1"],
      ["docs/reference/language.md", "10.7.2"],
    ]);
    expect(sections.get("docs/reference/runtime.md")?.has("99.1")).toBe(false);
    expect(sections.get("docs/reference/language.md")?.has("10.7.2")).toBe(true);
  });
});
