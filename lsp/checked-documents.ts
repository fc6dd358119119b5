// The checked form of each open document, computed at most once per version: the debounced
// diagnostics and every request (completion, hover …) on the same version share one check.
// Only the newest version of a document is kept. By default each document has its own
// IncrementalChecker (checker/incremental/): a version is checked from the previous one's work
// (the same result as checkSpec, in a fraction of the time after a small edit).
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { CheckOptions, CheckResult, SpecDocument } from "../checker/index";
import { IncrementalChecker, portableTarget, type ReferenceVersion } from "../checker/index";
import { PositionIndex } from "./positions";

export interface CheckedDocument {
  readonly uri: string;
  readonly version: number;
  readonly doc: SpecDocument;
  readonly positions: PositionIndex;
}

export type CheckFunction = (text: string) => CheckResult;

/** A version of a document (a TextDocument, or the text a check worker was sent). */
export type DocumentVersion = Pick<TextDocument, "uri" | "version" | "getText">;

export class CheckedDocuments {
  private readonly cache = new Map<string, CheckedDocument>();
  private readonly checkers = new Map<string, IncrementalChecker>();

  /**
   * `check`: a fixed checker for every document (tests count calls through it); default incremental,
   * with `options` (`portable` from the client's initializationOptions, server.ts).
   */
  constructor(
    private readonly check?: CheckFunction,
    private options: CheckOptions = {},
  ) {}

  /** Checks from now on with `options`; what was checked before is dropped. */
  configure(options: CheckOptions): void {
    this.options = options;
    this.cache.clear();
    this.checkers.clear();
  }

  /** The version documents are checked against for portability, or false (a worker compares it with what it is asked). */
  get portable(): ReferenceVersion | false {
    return portableTarget(this.options.portable) ?? false;
  }

  /** The checked document of this version (checked now unless it already was). */
  get(document: DocumentVersion): CheckedDocument {
    const cached = this.cache.get(document.uri);
    if (cached !== undefined && cached.version === document.version) return cached;
    const text = document.getText();
    const checked: CheckedDocument = {
      uri: document.uri,
      version: document.version,
      doc: { text, check: this.checkText(document.uri, text) },
      positions: new PositionIndex(text),
    };
    this.cache.set(document.uri, checked);
    return checked;
  }

  /** Whether this version was already checked (diagnostics then cost nothing). */
  has(document: DocumentVersion): boolean {
    return this.cache.get(document.uri)?.version === document.version;
  }

  forget(uri: string): void {
    this.cache.delete(uri);
    this.checkers.delete(uri);
  }

  private checkText(uri: string, text: string): CheckResult {
    if (this.check !== undefined) return this.check(text);
    let checker = this.checkers.get(uri);
    if (checker === undefined) {
      checker = new IncrementalChecker(this.options);
      this.checkers.set(uri, checker);
    }
    return checker.check(text);
  }
}
