// docs/reference/rules.md is generated from the catalogue (every code the CLI can report, the texts of
// `stratumc explain`) and must be up to date: every diagnostic links into it (the LSP's code
// description, the JSON format's `help_uri`, SARIF's `rules[].helpUri`, all from
// checker/rule-docs.ts). scripts/gen-docs.mjs writes it and `npm run check:generated`
// (test/scripts/generated.test.ts) keeps it up to date; this file checks what the page promises.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../checker/catalogue";
import { checkSpec } from "../../checker/check-spec";
import { LineMap } from "../../checker/location";
import { RULES_DOC_URL, ruleDocAnchor, ruleDocHref } from "../../checker/rule-docs";
import { formatJsonReports } from "../../cli/format/json";
import { reportWithDiagnostics } from "../../cli/format/report";
import { formatSarifReports } from "../../cli/format/sarif";
import { cliRules } from "../../cli/rules";
import { toLspDiagnostic } from "../../lsp/diagnostics";
import { PositionIndex } from "../../lsp/positions";

const docPath = fileURLToPath(new URL("../../docs/reference/rules.md", import.meta.url));

/** The explicit anchors of a Markdown text (`<a id="…"></a>`), in order. */
function anchors(text: string): string[] {
  return [...text.matchAll(/^<a id="([^"]+)"><\/a>$/gm)].map((m) => m[1] ?? "");
}

describe("docs/reference/rules.md", () => {
  it("has an explicit anchor, the code in lower case, before the heading of every code", () => {
    const text = readFileSync(docPath, "utf8");
    const found = anchors(text);
    expect(new Set(found).size).toBe(found.length);
    for (const rule of cliRules()) {
      const anchor = ruleDocAnchor(rule.code);
      expect(anchor).toBe(rule.code.toLowerCase()); // GitHub's heading anchor: old links keep working
      expect(found).toContain(anchor);
      expect(text).toContain(`\n<a id="${anchor}"></a>\n\n## ${rule.code}\n`);
      expect(ruleDocHref(rule.code)).toBe(`${RULES_DOC_URL}#${anchor}`);
    }
    expect(found).toEqual(cliRules().map((r) => ruleDocAnchor(r.code)));
    for (const code of CATALOGUE.keys()) expect(found).toContain(ruleDocAnchor(code));
  });
});

describe("links from a diagnostic to its rule", () => {
  const text = [
    'version: "0.2"',
    "flows:",
    "  main:",
    "    input: {}",
    "    steps:",
    "      - id: a",
    "        intent: go",
    "        depends_on: [b]",
    "        retries: 0",
    "",
  ].join("\n");
  const checked = checkSpec(text);
  const report = reportWithDiagnostics("spec.stratum.yaml", new LineMap(text), checked.diagnostics);

  it("the spec has errors of several codes", () => {
    expect(new Set(checked.diagnostics.map((d) => d.code)).size).toBeGreaterThan(1);
  });

  it("JSON help_uri, SARIF helpUri and the LSP code description are one address per diagnostic", () => {
    const [json] = JSON.parse(formatJsonReports([report]));
    const jsonDiagnostics: { code: string; help_uri: string }[] = [...json.errors, ...json.warnings];
    const sarif = JSON.parse(formatSarifReports([report], "0.0.0")).runs[0];
    const positions = new PositionIndex(text);
    const byCode = new Map(checked.diagnostics.map((d) => [d.code, d]));
    expect(jsonDiagnostics.length).toBe(checked.diagnostics.length);
    for (const d of jsonDiagnostics) {
      expect(d.help_uri).toBe(`${RULES_DOC_URL}#${d.code.toLowerCase()}`);
      const original = byCode.get(d.code);
      if (original === undefined) throw new Error(`no diagnostic ${d.code}`);
      expect(toLspDiagnostic(original, "file:///spec.stratum.yaml", positions).codeDescription?.href).toBe(
        d.help_uri,
      );
    }
    for (const result of sarif.results) {
      const rule = sarif.tool.driver.rules[result.ruleIndex];
      expect(rule.id).toBe(result.ruleId);
      expect(rule.helpUri).toBe(ruleDocHref(result.ruleId));
      expect(jsonDiagnostics.some((d) => d.code === result.ruleId && d.help_uri === rule.helpUri)).toBe(true);
    }
  });
});
