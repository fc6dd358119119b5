// Typical mistakes planted in a share of the corpus, so the benchmark also pays for reporting
// diagnostics (a pre-commit run sees broken specs too). Each mutation names the code it causes.

export interface Mutation {
  readonly code: string;
  /** The mutated text, or null when the spec has no place for this mistake. */
  apply(text: string): string | null;
}

function replaceLine(
  text: string,
  pattern: RegExp,
  edit: (line: string) => string,
  within?: [string, string],
): string | null {
  const lines = text.split("\n");
  let from = 0;
  let to = lines.length;
  if (within !== undefined) {
    from = lines.indexOf(within[0]);
    const end = lines.indexOf(within[1], from + 1);
    if (from < 0) return null;
    to = end < 0 ? lines.length : end;
  }
  for (let i = from; i < to; i++) {
    if (pattern.test(lines[i]!)) {
      lines[i] = edit(lines[i]!);
      return lines.join("\n");
    }
  }
  return null;
}

export const MUTATIONS: readonly Mutation[] = [
  {
    // A misspelt field in a function's ensure (typed by the output contract).
    code: "EXPR-UNKNOWN-FIELD",
    apply: (t) =>
      replaceLine(
        t,
        /result\.(?!get\b)[a-z_]+\b/,
        (l) => l.replace(/result\.(?!get\b)([a-z_]+)\b/, "result.$1_x"),
        ["functions:", "flows:"],
      ),
  },
  {
    code: "SCHEMA-UNKNOWN-KEY",
    apply: (t) => replaceLine(t, /^\s+depends_on:/, (l) => l.replace("depends_on:", "depend_on:")),
  },
  {
    code: "SPEC-REF-UNKNOWN-STEP",
    apply: (t) =>
      replaceLine(t, /\$\.steps\.[a-z_0-9]+\.output/, (l) =>
        l.replace(/\$\.steps\.([a-z_0-9]+)\.output/, "$$.steps.$1x.output"),
      ),
  },
  {
    code: "EXPR-SYNTAX",
    apply: (t) => replaceLine(t, /^\s+- "len\(/, (l) => l.replace('- "len(', '- "len((')),
  },
  {
    code: "SPEC-STEP-FUNCTION-UNDEFINED",
    apply: (t) =>
      replaceLine(t, /^\s+(- )?function: [a-z]/, (l) =>
        l.replace(/function: ([a-z_0-9]+)/, "function: $1_v2"),
      ),
  },
  {
    code: "SCHEMA-TYPE",
    apply: (t) => replaceLine(t, /^version: ["']0\.2["']$/, () => "version: 0.2"),
  },
];
