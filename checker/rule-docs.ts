// Where each diagnostic code is documented and the text of that page: docs/reference/rules.md, rendered from
// the catalogue (the same texts `stratumc explain CODE` prints) and kept up to date by
// scripts/gen-docs.mjs (checked by `npm run check:generated`). Every code has an explicit anchor, the code in lower case (the
// anchor GitHub gives its heading, so older links keep working). The front ends link to it: the
// LSP's `codeDescription.href`, the JSON format's `help_uri`, SARIF's `rules[].helpUri`.
import type { RuleInfo } from "./rule";

/** The rules page as the repository publishes it. */
export const RULES_DOC_URL = "https://github.com/stratumc/stratumc/blob/main/docs/reference/rules.md";

/** The anchor of a code in docs/reference/rules.md (stable: the code in lower case). */
export function ruleDocAnchor(code: string): string {
  return code.toLowerCase();
}

/** The address of a code's section of docs/reference/rules.md. */
export function ruleDocHref(code: string): string {
  return `${RULES_DOC_URL}#${ruleDocAnchor(code)}`;
}

/** What the page needs of a rule (the catalogue's RuleInfo, or a front end's own rule such as IO-READ). */
export type DocumentedRule = Pick<
  RuleInfo,
  "code" | "severity" | "errorType" | "title" | "doc" | "example" | "fix"
> & {
  readonly family: string;
};

export function renderRulesDoc(rules: readonly DocumentedRule[]): string {
  const out = [
    "# Diagnostic codes",
    "",
    "<!-- Generated from checker/catalogue.ts by scripts/gen-docs.mjs " +
      "(npm run check:generated -- --write). Do not edit by hand. -->",
    "",
    "Every code `stratumc check` (and the language server) can report. `stratumc explain CODE` prints " +
      "the same text in a terminal. Each code's section has a stable anchor, the code in lower case " +
      "(`#spec-step-mode`); the JSON output's `help_uri`, SARIF's `helpUri` and the editor's link point there. " +
      "The keys of a spec are described in [the format reference](format.md).",
    "",
    ...rules.map((r) => `- [${r.code}](#${ruleDocAnchor(r.code)}): ${r.title}`),
    "",
  ];
  for (const r of rules) {
    out.push(`<a id="${ruleDocAnchor(r.code)}"></a>`, "", `## ${r.code}`, "", `**${r.title}**`, "");
    out.push(`Severity: ${r.severity} · family: ${r.family} · error type: ${r.errorType}`, "");
    out.push(r.doc, "");
    if (r.fix !== undefined) out.push(`Automatic fix: ${r.fix}`, "");
    if (r.example !== undefined) {
      out.push("Reported:", "", "```yaml", r.example.bad, "```", "");
      if (r.example.good !== undefined) out.push("Fixed:", "", "```yaml", r.example.good, "```", "");
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}
