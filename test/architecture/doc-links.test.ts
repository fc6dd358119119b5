// Every relative markdown link of the hand-read pages (README.md, ARCHITECTURE.md, test/README.md,
// docs/**) resolves: the file or folder exists and, when the link has an `#anchor`, the target page
// has a heading with that GitHub anchor. Links inside code spans and fenced blocks are text, not links.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "./cruise";

/** The markdown pages whose links are checked, relative to the repository. */
function pages(): string[] {
  return execFileSync(
    "git",
    [
      "ls-files",
      "--cached",
      "--others",
      "--exclude-standard",
      "README.md",
      "ARCHITECTURE.md",
      "test/README.md",
      "docs",
    ],
    { cwd: REPO, encoding: "utf8" },
  )
    .split("\n")
    .filter((f) => f.endsWith(".md") && existsSync(join(REPO, f)));
}

/** The text with fenced code blocks blanked, lines kept (a `#` line there is not a heading). */
const unfenced = (text: string): string =>
  text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ""));

/** The text without fenced code blocks and code spans (their brackets are not links). */
const prose = (text: string): string => unfenced(text).replace(/`[^`\n]*`/g, "``");

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Every anchor of a page, with GitHub's `-1`, `-2` suffixes for repeated headings. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of unfenced(text).split("\n")) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (m?.[1] === undefined) continue;
    const base = anchorOf(m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1"));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a (?:name|id)="([^"]+)"/g)) out.add(m[1] ?? "");
  return out;
}

const anchorCache = new Map<string, Set<string>>();
/** The anchors of a page of the repository, read once. */
function anchorsOf(file: string): Set<string> {
  let found = anchorCache.get(file);
  if (found === undefined) {
    found = anchors(readFileSync(join(REPO, file), "utf8"));
    anchorCache.set(file, found);
  }
  return found;
}

/** The relative link targets of a page, with their lines. */
function links(text: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  const body = prose(text);
  for (const m of body.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1] ?? "";
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    out.push({ target, line: body.slice(0, m.index).split("\n").length });
  }
  return out;
}

/** The problems of one page's links: "page:line: target (why)". */
function brokenLinks(page: string, text = readFileSync(join(REPO, page), "utf8")): string[] {
  const problems: string[] = [];
  for (const { target, line } of links(text)) {
    const [pathPart = "", anchor] = target.split("#", 2);
    const file = pathPart === "" ? page : normalize(join(dirname(page), decodeURI(pathPart)));
    const where = `${page}:${line}: ${target}`;
    if (file.startsWith("..") || !existsSync(join(REPO, file))) {
      problems.push(`${where} (no such file)`);
      continue;
    }
    if (anchor === undefined || anchor === "" || statSync(join(REPO, file)).isDirectory()) continue;
    if (!file.endsWith(".md")) continue;
    if (!anchorsOf(file).has(anchor)) problems.push(`${where} (no heading with that anchor)`);
  }
  return problems;
}

describe("relative markdown links", () => {
  it("resolve to a file of the repository and, with an anchor, to a heading of it", () => {
    const all = pages();
    expect(all).toContain("docs/README.md");
    expect(all.flatMap((p) => brokenLinks(p))).toEqual([]);
  });

  it("are found outside code, and anchors follow GitHub's rules", () => {
    const found = links("a [x](a.md#b) `[y](no.md)`\n```\n[z](no.md)\n```\n[w](https://e.org) [v](#c)");
    expect(found.map((l) => l.target)).toEqual(["a.md#b", "#c"]);
    expect(anchorOf("Durable flows at O(1) and start-up")).toBe("durable-flows-at-o1-and-start-up");
    expect(anchorOf("9.7 `--portable`: specs")).toBe("97---portable-specs");
    expect([...anchors("# A\n## A\n## B")]).toEqual(["a", "a-1", "b"]);
  });

  it("reports a missing file, a path out of the repository and a missing anchor", () => {
    const text = "[a](nowhere.md) [b](../README.md#no-such-heading) [c](../README.md) [d](../../x.md)";
    expect(brokenLinks("docs/page.md", text)).toEqual([
      "docs/page.md:1: nowhere.md (no such file)",
      "docs/page.md:1: ../README.md#no-such-heading (no heading with that anchor)",
      "docs/page.md:1: ../../x.md (no such file)",
    ]);
  });
});
