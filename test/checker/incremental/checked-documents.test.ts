// The language server's document cache checks each version incrementally: every version's result
// equals checkSpec of its text, through incremental content changes and skipped versions.

import { describe, expect, it } from "vitest";
import { TextDocument } from "vscode-languageserver-textdocument";
import { checkSpec } from "../../../checker/check-spec";
import { CheckedDocuments } from "../../../lsp/checked-documents";
import { benchFixture, checkShape } from "./support";

const URI = "file:///w/typical.stratum.yaml";

describe("CheckedDocuments with incremental checks", () => {
  it("answers as checkSpec for every version, one check per version", () => {
    const docs = new CheckedDocuments();
    let doc = TextDocument.create(URI, "yaml", 1, benchFixture());
    const first = docs.get(doc);
    expect(checkShape(first.doc.check)).toEqual(checkShape(checkSpec(doc.getText())));
    expect(docs.get(doc)).toBe(first);
    const edits: [string, string][] = [
      ["smallest", "simplest"],
      ["result.approved", "result.aproved"],
      ["retries: 2", "retries: 3\n    budget: 1"],
      ["simplest", "s"],
    ];
    let version = 1;
    for (const [find, replace] of edits) {
      const at = doc.getText().indexOf(find);
      const range = { start: doc.positionAt(at), end: doc.positionAt(at + find.length) };
      doc = TextDocument.update(doc, [{ range, text: replace }], ++version);
      const checked = docs.get(doc);
      expect(checked.version).toBe(version);
      expect(checked.doc.text).toBe(doc.getText());
      expect(checkShape(checked.doc.check)).toEqual(checkShape(checkSpec(doc.getText())));
    }
    const codes = docs.get(doc).doc.check.diagnostics.map((d) => d.code);
    expect(codes).toEqual(["SCHEMA-TYPE", "EXPR-UNKNOWN-FIELD"]);
  });

  it("starts afresh after forget (a reopened document)", () => {
    const docs = new CheckedDocuments();
    const text = benchFixture();
    docs.get(TextDocument.create(URI, "yaml", 1, text));
    docs.forget(URI);
    const reopened = TextDocument.create(URI, "yaml", 1, 'version: "0.2"\nflows: {}\n');
    expect(docs.has(reopened)).toBe(false);
    expect(checkShape(docs.get(reopened).doc.check)).toEqual(checkShape(checkSpec(reopened.getText())));
  });
});
