// The benchmark corpus: every `ok` expression of the shared conformance table (evaluated with one
// set of bindings that gives their names plausible values) plus typical expressions with their own
// bindings. Bindings are JSON text, as `stratumc eval --bindings` takes them.
import { readFileSync } from "node:fs";

export interface BenchCase {
  readonly expr: string;
  readonly bindings: string;
  readonly input?: string;
  readonly steps?: string;
}

/** Files the file builtins of the corpus look for (created in a temporary root). */
export const CORPUS_FILES: Readonly<Record<string, string>> = {
  "design.md": "# Design Doc\nmarker\n",
  "src/foo.ts": "export const hello = 'hello world'; verifyJwt();\n",
  "src/Foo.ts": "export {};\n",
  ".specify/feature/spec.md": "spec\n",
};

const NUMBERS: Record<string, number | string> = {
  confidence: 0.9,
  quality_score: 0.85,
  score: 0.7,
  field: 3,
  word_count: 300,
  quality: 0.97,
  task_count: "4",
  test_count: 7,
};
const BOOLEANS = new Set([
  "all_passed",
  "approved",
  "clean",
  "done",
  "lint_clean",
  "met",
  "ok",
  "tests_pass",
  "vulnerabilities_checked",
  "coverage_complete",
]);
const SPECIAL: Record<string, unknown> = {
  items: [
    { id: 1, status: "complete" },
    { id: 2, status: "failed" },
    { id: 3, status: "complete" },
  ],
  files_changed: ["src/foo.ts", "src/bar.ts"],
  findings: ["unused import", "missing test"],
  value: [1, 2, 3],
  path: "design.md",
  spec_path: ".specify/feature/spec.md",
  label: "positive",
  outcome: "complete",
  status: "success",
  test_status: "passing",
  v: "done",
  failures: "none",
};

/** One `result` object holding every field the conformance expressions read. */
function conformanceBindings(exprs: readonly string[]): string {
  const result: Record<string, unknown> = {};
  for (const e of exprs) {
    for (const m of e.matchAll(/\bresult\.([A-Za-z_]\w*)/g)) {
      const f = m[1]!;
      result[f] =
        f in SPECIAL ? SPECIAL[f] : f in NUMBERS ? NUMBERS[f] : BOOLEANS.has(f) ? true : `${f} text`;
    }
  }
  const item = { id: "a1", tags: ["x", "y"], file: "src/foo.ts", line: 12 };
  return JSON.stringify({
    result,
    item,
    best_score: 0.95,
    prior_scores: [0.5, 0.9, 0.95],
    accumulated_count: 4,
    dry_streak: 1,
    iteration: 2,
  });
}

const INPUT = JSON.stringify({ do_skip: true, name: "bob", files: ["a.ts", "b.ts"] });
const STEPS = JSON.stringify({
  s1: { skip: false, label: "x", nested: { a: 1 } },
  tests: { all_passed: true },
  s: [{ id: 1 }, { id: 2 }],
  build: { artifacts: ["app.js", "app.js.map"] },
});

/** Typical expressions with bindings of their own (a string is JSON text, for exact big ints). */
const TYPICAL: readonly [string, unknown][] = [
  [
    "len(result.items) > 0 and all(i['ok'] for i in result.items)",
    { result: { items: [{ ok: true }, { ok: true }] } },
  ],
  ["sum(x * 2 for x in nums if x % 2 == 0)", { nums: [1, 2, 3, 4, 5, 6, 7, 8] }],
  ["sorted(words, reverse=True)[:3]", { words: ["pear", "apple", "fig", "kiwi"] }],
  ["', '.join(w.upper() for w in words)", { words: ["a", "b", "c"] }],
  ["max(scores, default=0) >= 0.8", { scores: [0.5, 0.81, 0.7] }],
  ["round(total / count, 2)", { total: 10, count: 3 }],
  ["'error' not in log.lower()", { log: "All Tests Passed" }],
  [
    "result.status in ('success', 'partial') and result.score >= 0.5",
    { result: { status: "partial", score: 0.6 } },
  ],
  [
    "[f['path'] for f in files if f['path'].endswith('.ts')]",
    { files: [{ path: "a.ts" }, { path: "b.py" }] },
  ],
  ["result.summary.strip().startswith('OK')", { result: { summary: "  OK: 3 passed " } }],
  ["int(version.split('.')[0]) >= 2", { version: "2.14.1" }],
  ["float(ratio) > 0.5", { ratio: "0.75" }],
  ["x if x is not None else 0", { x: null }],
  ["abs(a - b) < 1e-9", { a: 0.30000000000000004, b: 0.3 }],
  [
    "any(t['name'] == 'build' and t['passed'] for t in tests)",
    {
      tests: [
        { name: "lint", passed: true },
        { name: "build", passed: true },
      ],
    },
  ],
  ["min(len(s) for s in words)", { words: ["alpha", "be", "gamma"] }],
  ["text.count('a') + text.find('z')", { text: "banana split" }],
  ["data.get('missing', 'default')", { data: { present: 1 } }],
  [
    "[x for row in matrix for x in row if x > 2]",
    {
      matrix: [
        [1, 2, 3],
        [4, 5, 6],
      ],
    },
  ],
  ["d['a']['b'][0]", { d: { a: { b: [42] } } }],
  ["s[::-1] == s", { s: "racecar" }],
  ["str(n) + '!'", { n: 12345 }],
  ["n // 3 + n % 3 * 10 - -n", { n: 47 }],
  ["big * big + 1", '{"big": 12345678901234567890}'],
  ["0 < score <= 1", { score: 0.5 }],
  ["not flags and 'none' or 'some'", { flags: [] }],
  ["(a, b) < (a, b + 1)", { a: 1, b: 2 }],
  ["pair.index(3) + len({'k': pair})", { pair: [2, 3] }],
  ["sorted(d.items())[0][1]", { d: { b: 2, a: 1 } }],
  ["{'n': n, 'ok': n > 0}", { n: 3 }],
  ["str(item.file) + ':' + str(item.line)", { item: { file: "src/a.ts", line: 7 } }],
  ["result.tags[0].replace('-', '_').lower() == 'feature_x'", { result: { tags: ["Feature-X"] } }],
];

/** Typical expressions that read `$` paths (our language only; CPython cannot compile them). */
const PATHS: readonly string[] = [
  "$.input.do_skip == True",
  "len($.input.files) == 2 and $.input.name.upper() == 'BOB'",
  "$.steps.s1.output.nested == {'a': 1}",
  "$.steps.build.output.artifacts.0.endswith('.js')",
];

export function loadCorpus(tsvPath: string): BenchCase[] {
  const conformance = readFileSync(tsvPath, "utf8")
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => line.split("\t"))
    .filter((cols) => cols[1] === "ok" && cols[2] !== undefined)
    .map((cols) => cols[2]!);
  const shared = conformanceBindings(conformance);
  return [
    ...conformance.map((expr) => ({ expr, bindings: shared, input: INPUT, steps: STEPS })),
    ...TYPICAL.map(([expr, b]) => ({ expr, bindings: typeof b === "string" ? b : JSON.stringify(b) })),
    ...PATHS.map((expr) => ({ expr, bindings: "{}", input: INPUT, steps: STEPS })),
  ];
}
