// The checked form of each open document, computed at most once per version: the debounced
// diagnostics and every request (completion, hover …) on the same version share one checkSpec.
// Only the newest version of a document is kept.
import type { TextDocument } from "vscode-languageserver-textdocument";
import { type CheckResult, checkSpec } from "../checker/check-spec";
import type { SpecDocument } from "../checker/services/types";
import { PositionIndex } from "./positions";

export interface CheckedDocument {
  readonly uri: string;
  readonly version: number;
  readonly doc: SpecDocument;
  readonly positions: PositionIndex;
}

export type CheckFunction = (text: string) => CheckResult;

export class CheckedDocuments {
  private readonly cache = new Map<string, CheckedDocument>();

  constructor(private readonly check: CheckFunction = checkSpec) {}

  /** The checked document of this version (checked now unless it already was). */
  get(document: TextDocument): CheckedDocument {
    const cached = this.cache.get(document.uri);
    if (cached !== undefined && cached.version === document.version) return cached;
    const text = document.getText();
    const checked: CheckedDocument = {
      uri: document.uri,
      version: document.version,
      doc: { text, check: this.check(text) },
      positions: new PositionIndex(text),
    };
    this.cache.set(document.uri, checked);
    return checked;
  }

  /** Whether this version was already checked (diagnostics then cost nothing). */
  has(document: TextDocument): boolean {
    return this.cache.get(document.uri)?.version === document.version;
  }

  forget(uri: string): void {
    this.cache.delete(uri);
  }
}
