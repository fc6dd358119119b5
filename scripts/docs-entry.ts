// What scripts/gen-docs.mjs needs from the TypeScript sources, bundled by it with esbuild: the
// generated pages (the diagnostic codes, the format reference, the published JSON Schema) and the
// counts the hand-written pages state (the marker blocks `<!-- generated:NAME -->…<!-- /generated -->`).
import { renderFormatDoc } from "../checker/format-doc";
import { renderRulesDoc } from "../checker/rule-docs";
import { specJsonSchema } from "../checker/schema/json-schema";
import { cliRules } from "../cli/rules";
import { REFUSED_TOOLS } from "../mcp/refused-tools";
import { TOOLS } from "../mcp/tools";
import { METHODS } from "../stdlib/builtins/methods";
import { BUILTINS } from "../stdlib/builtins/registry";

/** Each generated page's text, by its path in the repository. */
export function generatedPages(): Record<string, string> {
  return {
    "docs/reference/rules.md": renderRulesDoc(cliRules()),
    "docs/reference/format.md": renderFormatDoc(),
    "schema/stratum.schema.json": `${JSON.stringify(specJsonSchema(), null, 2)}\n`,
  };
}

/** The counts of the code; the counts of files (examples, skills) are taken by gen-docs.mjs. */
export function codeCounts(): Record<string, number> {
  return {
    "tool-count": TOOLS.length,
    "refused-tool-count": REFUSED_TOOLS.size,
    "diagnostic-code-count": cliRules().length,
    "builtin-count": BUILTINS.size,
    "method-count": METHODS.size,
  };
}
