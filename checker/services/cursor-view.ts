// What the editor services read of a document: the YAML tree, the model and the expression table.
// A document being typed often does not load cleanly (`depends_on: [`, a key without a value);
// `checkSpec` then gives no model. The yaml package still recovers a tree, so we run the checker's
// own structure and expression phases on that recovered tree (diagnostics discarded) — no second
// parser. The view is computed once per check result.

import type { Version } from "../base/version";
import type { CheckResult } from "../check-spec";
import { checkStructure } from "../model/check-structure";
import type { SpecModel } from "../model/types";
import { DiagnosticSink } from "../report";
import { pythonStr } from "../schema/python-str";
import { checkSpecExpressions } from "../spec-expr/index";
import type { ExpressionTable } from "../spec-expr/types";
import { loadYaml } from "../yaml/load";
import type { MapNode, SpecNode } from "../yaml/nodes";
import type { SpecDocument } from "./types";

export interface DocView {
  readonly text: string;
  /** The document root as loaded (possibly recovered from broken YAML); null when there is none. */
  readonly root: SpecNode | null;
  readonly model: SpecModel | null;
  readonly expressions: ExpressionTable | null;
  /** The model's version; without a model, the root's `version` when it names one, else 0.2. */
  readonly version: Version;
}

const views = new WeakMap<CheckResult, DocView>();

export function viewOf(doc: SpecDocument): DocView {
  let view = views.get(doc.check);
  if (view === undefined) {
    view = buildView(doc);
    views.set(doc.check, view);
  }
  return view;
}

function buildView(doc: SpecDocument): DocView {
  const check = doc.check;
  if (check.model !== null) {
    return {
      text: doc.text,
      root: check.model.root,
      model: check.model,
      expressions: check.expressions,
      version: check.model.version,
    };
  }
  const source = check.source;
  const sink = new DiagnosticSink();
  const loaded = loadYaml(source, sink);
  const root = loaded.root;
  // Only a recovered tree is worth a second structure pass: a clean load already gave its answer.
  const model = loaded.ok ? null : safeStructure(() => checkStructure(source, root, sink));
  const expressions = model === null ? null : safeStructure(() => checkSpecExpressions(model, sink));
  return {
    text: doc.text,
    root: root.kind === "map" && root.entries.length === 0 && !hasContent(doc.text) ? null : root,
    model,
    expressions,
    version: model?.version ?? versionOf(root),
  };
}

/** The later phases are written for trees that loaded cleanly; a recovered tree must not crash us. */
function safeStructure<T>(run: () => T): T | null {
  try {
    return run();
  } catch {
    return null;
  }
}

function hasContent(text: string): boolean {
  return /\S/.test(text);
}

function versionOf(root: SpecNode): Version {
  if (root.kind !== "map") return "0.2";
  const v = (root as MapNode).get("version")?.value;
  const text = v === undefined ? "" : pythonStr(v);
  return text === "0.1" || text === "0.3" ? text : "0.2";
}
