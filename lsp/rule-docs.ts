// Where each diagnostic code is documented (the LSP `codeDescription.href`) and the text of that
// page: docs/rules.md, rendered from the checker's catalogue (the same texts `stratumc explain
// CODE` prints) and kept up to date by test/lsp/rule-docs.test.ts. One heading per code, so the
// GitHub anchor of a code is the code in lower case.
import type { RuleInfo } from "../checker/rule";

/** The rules page as the repository publishes it. */
export const RULES_DOC_URL = "https://github.com/stratumc/stratumc/blob/main/docs/rules.md";

export function ruleDocHref(code: string): string {
  return `${RULES_DOC_URL}#${code.toLowerCase()}`;
}

/** What the page needs of a rule (the catalogue's RuleInfo, or a front end's own rule such as IO-READ). */
export type DocumentedRule = Pick<
  RuleInfo,
  "code" | "severity" | "errorType" | "title" | "doc" | "example"
> & {
  readonly family: string;
};

export function renderRulesDoc(rules: readonly DocumentedRule[]): string {
  const out = [
    "# Diagnostic codes",
    "",
    "<!-- Generated from checker/catalogue.ts by test/lsp/rule-docs.test.ts " +
      "(UPDATE_RULES_DOC=1 npx vitest run test/lsp/rule-docs.test.ts). Do not edit by hand. -->",
    "",
    "Every code `stratumc check` (and the language server) can report. `stratumc explain CODE` prints " +
      "the same text in a terminal.",
    "",
    ...rules.map((r) => `- [${r.code}](#${r.code.toLowerCase()}): ${r.title}`),
    "",
  ];
  for (const r of rules) {
    out.push(`## ${r.code}`, "", `**${r.title}**`, "");
    out.push(`Severity: ${r.severity} · family: ${r.family} · error type: ${r.errorType}`, "");
    out.push(r.doc, "");
    if (r.example !== undefined) {
      out.push("Reported:", "", "```yaml", r.example.bad, "```", "");
      if (r.example.good !== undefined) out.push("Fixed:", "", "```yaml", r.example.good, "```", "");
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}
