// Writes the generated docs and the generated numbers inside the hand-written ones:
// - docs/reference/rules.md (from the rule catalogue), docs/reference/format.md (from the format
//   description) and schema/stratum.schema.json (what `stratumc schema` prints), whole;
// - in README.md, ARCHITECTURE.md and the pages of docs/ listed in MARKED_PAGES, every block
//   `<!-- generated:NAME -->VALUE<!-- /generated -->` gets the current VALUE of NAME (COUNTS below),
//   so a count such as the number of MCP tools served is never typed by hand.
//
//   node scripts/gen-docs.mjs [--out DIR]     (npm run check:generated -- --write regenerates all)
//
// The TypeScript it reads (scripts/docs-entry.ts) is bundled with esbuild into a temporary file.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The hand-written pages that hold generated numbers (a marker elsewhere is an error). */
export const MARKED_PAGES = [
  "README.md",
  "ARCHITECTURE.md",
  "docs/README.md",
  "docs/reference/runtime.md",
  "docs/reference/divergences.md",
  "docs/guides/mcp-server-resources.md",
];

/** The pages written whole. */
export const GENERATED_PAGES = [
  "docs/reference/rules.md",
  "docs/reference/format.md",
  "schema/stratum.schema.json",
];

const MARKER = /<!-- generated:([a-z-]+) -->([\s\S]*?)<!-- \/generated -->/g;

/** The text with every marker block's value replaced; throws on a name without a value. */
export function fillMarkers(text, counts, page = "text") {
  return text.replace(MARKER, (_, name) => {
    if (!(name in counts)) throw new Error(`${page}: no generated value named "${name}"`);
    return `<!-- generated:${name} -->${counts[name]}<!-- /generated -->`;
  });
}

/** The Markdown pages a marker may be in: README.md, ARCHITECTURE.md, docs/. */
function markdownPages() {
  const docs = readdirSync(join(ROOT, "docs"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  return ["README.md", "ARCHITECTURE.md", ...docs];
}

async function loadEntry() {
  const dir = mkdtempSync(join(tmpdir(), "stratum-gen-docs-"));
  try {
    const outfile = join(dir, "docs-entry.cjs");
    await build({
      entryPoints: [join(ROOT, "scripts/docs-entry.ts")],
      bundle: true,
      platform: "node",
      format: "cjs",
      outfile,
      logLevel: "error",
    });
    return createRequire(import.meta.url)(outfile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const countDirs = (rel) =>
  readdirSync(join(ROOT, rel), { withFileTypes: true }).filter((e) => e.isDirectory()).length;
const countFiles = (rel, suffix) => readdirSync(join(ROOT, rel)).filter((f) => f.endsWith(suffix)).length;

async function main() {
  const outFlag = process.argv.indexOf("--out");
  const outRoot = outFlag === -1 ? ROOT : process.argv[outFlag + 1];
  const entry = await loadEntry();
  const counts = {
    ...entry.codeCounts(),
    "skill-count": countDirs("assets/skills"),
    "example-count": countFiles("examples", ".stratum.yaml"),
  };
  const write = (rel, text) => {
    mkdirSync(dirname(join(outRoot, rel)), { recursive: true });
    writeFileSync(join(outRoot, rel), text);
  };
  for (const [rel, text] of Object.entries(entry.generatedPages())) write(rel, text);
  const strays = markdownPages().filter(
    (p) => !MARKED_PAGES.includes(p) && /<!-- generated:/.test(readFileSync(join(ROOT, p), "utf8")),
  );
  if (strays.length > 0)
    throw new Error(`generated numbers in pages not in MARKED_PAGES: ${strays.join(", ")}`);
  for (const rel of MARKED_PAGES) write(rel, fillMarkers(readFileSync(join(ROOT, rel), "utf8"), counts, rel));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
