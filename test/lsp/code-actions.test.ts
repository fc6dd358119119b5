// Quick fixes and `stratumc check --fix` use the same edits (checker/fix.ts): applying every
// preferred quick fix of a document gives the text of one --fix pass; a fix marked
// machine_applicable: false is still offered, but not as preferred.

import { describe, expect, it } from "vitest";
import { TextDocument } from "vscode-languageserver-textdocument";
import { checkSpec } from "../../checker/check-spec";
import type { Diagnostic } from "../../checker/diagnostic";
import { applyFixEdits } from "../../checker/fix";
import type { CheckedDocument } from "../../lsp/checked-documents";
import { quickFixes } from "../../lsp/code-actions";
import { PositionIndex } from "../../lsp/positions";

const URI = "file:///spec.stratum.yaml";
const TEXT =
  'version: 0.2\nflows:\n  main:\n    input: {}\n    steps:\n      - id: "bü😀ld"\n        intent: "x"\n      - id: b\n        depends_on: ["bü😀l"]\n        intentt: "y"\n';
('version: 0.2\nflows:\n  main:\n    input: {}\n    steps:\n      - id: bü😀ld\n        intent: "x"\n      - id: b\n        depends_on: [bü😀l]\n        intentt: "y"  # stratum-ignore[SPEC-STEP-MODE]: none\n');
const WHOLE = { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } };

function checked(text: string, diagnostics: readonly Diagnostic[]): CheckedDocument {
  const check = { ...checkSpec(text), diagnostics };
  return {
    uri: URI,
    version: 1,
    positions: new PositionIndex(text),
    doc: { check },
  } as unknown as CheckedDocument;
}

describe("quick fixes and --fix", () => {
  it("apply the same edits", () => {
    const { diagnostics } = checkSpec(TEXT);
    const actions = quickFixes(checked(TEXT, diagnostics), WHOLE);
    expect(actions.length).toBe(3);
    const edits = actions.filter((a) => a.isPreferred).flatMap((a) => a.edit?.changes?.[URI] ?? []);
    const viaLsp = TextDocument.applyEdits(TextDocument.create(URI, "yaml", 1, TEXT), edits);
    expect(viaLsp).toBe(applyFixEdits(TEXT, diagnostics).text);
  });

  it("offer a fix that is not machine-applicable without preferring it", () => {
    const { diagnostics } = checkSpec(TEXT);
    const marked = diagnostics.map((d) =>
      d.fix === undefined ? d : { ...d, fix: { ...d.fix, machine_applicable: false as const } },
    );
    const actions = quickFixes(checked(TEXT, marked), WHOLE);
    expect(actions.length).toBe(quickFixes(checked(TEXT, diagnostics), WHOLE).length);
    expect(actions.every((a) => a.isPreferred === false)).toBe(true);
    expect(applyFixEdits(TEXT, marked).text).toBe(TEXT);
  });
});
