// docs/rules.md is generated from the catalogue (every code the CLI can report, the texts of
// `stratumc explain`) and must be up to date: every diagnostic's code description points into it.
// UPDATE_RULES_DOC=1 rewrites it.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../checker/catalogue";
import { cliRules } from "../../cli/rules";
import { RULES_DOC_URL, renderRulesDoc, ruleDocHref } from "../../lsp/rule-docs";

const docPath = fileURLToPath(new URL("../../docs/rules.md", import.meta.url));

describe("docs/rules.md", () => {
  const expected = renderRulesDoc(cliRules());
  if (process.env.UPDATE_RULES_DOC === "1") writeFileSync(docPath, expected);

  it("is the rendering of the current catalogue", () => {
    expect(existsSync(docPath) ? readFileSync(docPath, "utf8") : "(missing)").toBe(expected);
  });

  it("has a heading, hence an anchor, for every code a diagnostic can carry", () => {
    const text = readFileSync(docPath, "utf8");
    for (const code of CATALOGUE.keys()) {
      expect(text).toContain(`\n## ${code}\n`);
      expect(ruleDocHref(code)).toBe(`${RULES_DOC_URL}#${code.toLowerCase()}`);
    }
  });
});
