// The counts the user-facing pages state — of MCP tools, skills, diagnostic codes, examples,
// builtins, methods — are true. Most are generated (`<!-- generated:NAME -->` blocks filled by
// scripts/gen-docs.mjs and diffed by `npm run check:generated`); any other count written by hand
// must be listed below with the number it claims and, when it is about stratumc, the truth it is
// compared with, so that a new hand-typed count ("16 tools") fails here until it is generated or
// justified. The design pages (docs/design/) record decisions as they were taken and are not read.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOLS } from "../../mcp/tools";
import { REPO } from "./cruise";

const WORDS = [
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
  "twenty",
];

/**
 * A number (digits or a word), up to two words, and a counted noun. Not a section number (a
 * heading's `4.2 Tools`, `0.2 rules`) and not joined by "of", "the", "its", "are" or "is" ("one of its
 * methods", "three are builtins").
 */
const COUNT = new RegExp(
  `(?<![.\\d§])\\b(\\d[\\d,]*|${WORDS.join("|")})(?![.\\d])\\s+` +
    "((?:(?!(?:of|the|its|are|is)\\b)[\\w`*-]+\\s+){0,2}?)" +
    "(tools|skills|diagnostic codes|codes|example specs|examples|builtins|methods)\\b",
  "gi",
);

const GENERATED = /<!-- generated:[a-z-]+ -->[\s\S]*?<!-- \/generated -->/g;

/** The pages read: what a user reads to install and use stratumc. */
function pages(): string[] {
  const under = (dir: string) =>
    readdirSync(join(REPO, dir))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `${dir}/${f}`);
  return [
    "README.md",
    "ARCHITECTURE.md",
    "test/README.md",
    "docs/README.md",
    ...under("docs/guides"),
    ...under("docs/reference"),
  ];
}

/** Every hand-typed count: `page: matched text`, white space collapsed. */
function handTypedCounts(page: string, text: string): string[] {
  const plain = text.replace(GENERATED, "(generated)");
  return [...plain.matchAll(COUNT)].map((m) => `${page}: ${m[0].replace(/\s+/g, " ")}`);
}

const toolsNamed = (part: string) => TOOLS.filter((t) => t.name.includes(part)).length;

/**
 * The counts written by hand, each with why it is not generated; `truth` when it counts something
 * of stratumc (compared with the number written), none when it is about the Python reference.
 */
const HAND_TYPED: ReadonlyMap<string, { readonly why: string; readonly truth?: () => number }> = new Map([
  ["docs/reference/divergences.md: 37 tools", { why: "the reference 0.2.69's own tool count" }],
  ["docs/reference/divergences.md: 8 skills", { why: "the reference 0.2.50's skills" }],
  [
    "docs/reference/divergences.md: two tools",
    { why: "stratumc's own tools: stratum_fuzz and stratum_gate_ask, named beside it", truth: () => 2 },
  ],
  [
    "docs/reference/divergences.md: four parallel tools",
    { why: "the parallel tools, named beside it", truth: () => toolsNamed("_parallel_") },
  ],
  [
    "docs/reference/runtime.md: four parallel tools",
    { why: "the parallel tools, named beside it", truth: () => toolsNamed("_parallel_") },
  ],
  [
    "docs/reference/runtime.md: two agent-run tools",
    { why: "the agent-run tools, named beside it", truth: () => toolsNamed("_agent_run") },
  ],
  [
    "docs/reference/runtime.md: two tools",
    { why: "stratumc's own tools: stratum_fuzz and stratum_gate_ask, named beside it", truth: () => 2 },
  ],
]);

function numberOf(text: string): number {
  const word = text.split(" ").find((w) => /^\d/.test(w) || WORDS.includes(w.toLowerCase())) ?? "";
  const index = WORDS.indexOf(word.toLowerCase());
  return index >= 0 ? index + 1 : Number(word.replace(/,/g, ""));
}

describe("counts in the docs", () => {
  const found = pages().flatMap((page) => handTypedCounts(page, readFileSync(join(REPO, page), "utf8")));

  it("every count written by hand is listed with its reason (the others are generated)", () => {
    const unlisted = [...new Set(found)].filter((f) => !HAND_TYPED.has(f));
    expect(
      unlisted,
      "generate these counts (scripts/docs-entry.ts, gen-docs.mjs MARKED_PAGES) or list them in HAND_TYPED",
    ).toEqual([]);
  });

  it("every listed count is still in the docs", () => {
    expect([...HAND_TYPED.keys()].filter((k) => !found.includes(k))).toEqual([]);
  });

  it.each([...HAND_TYPED].filter(([, v]) => v.truth !== undefined))("%s is true", (text, { truth }) => {
    // The number in the matched text is the claim; the tool table is the truth.
    expect(numberOf(text.slice(text.indexOf(": ") + 2))).toBe(truth?.());
  });

  it("finds a hand-typed count, and not a generated one or a section number", () => {
    expect(handTypedCounts("p", "It serves 16 tools, plus `stratum_fuzz`.")).toEqual(["p: 16 tools"]);
    expect(handTypedCounts("p", "offers the eleven skills that")).toEqual(["p: eleven skills"]);
    expect(handTypedCounts("p", "the <!-- generated:tool-count -->25<!-- /generated --> tools")).toEqual([]);
    expect(handTypedCounts("p", "### 16.2 Tools\nversion 0.2 rules, one of its methods")).toEqual([]);
  });
});
