// Quick fixes: the checker's own fixes (did-you-mean replacements, quoting the version, declaring
// a gate route …), offered for every diagnostic with a fix whose range touches the requested
// range. The edits are the fix's edits exactly as `stratumc check --format json` prints them and
// `stratumc check --fix` applies them (checker/fix.ts).
import { type CodeAction, CodeActionKind, type Range } from "vscode-languageserver/node";
import { isMachineApplicable } from "../checker/index";
import type { CheckedDocument } from "./checked-documents";
import { toLspDiagnostic } from "./diagnostics";

export function quickFixes(checked: CheckedDocument, range: Range, only?: readonly string[]): CodeAction[] {
  if (only !== undefined && !only.some((kind) => CodeActionKind.QuickFix.startsWith(kind))) return [];
  const { positions, uri } = checked;
  const actions: CodeAction[] = [];
  for (const d of checked.doc.check.diagnostics) {
    if (d.fix === undefined || d.fix.edits.length === 0) continue;
    const diagnostic = toLspDiagnostic(d, uri, positions);
    if (!touches(diagnostic.range, range)) continue;
    actions.push({
      title: d.fix.description,
      kind: CodeActionKind.QuickFix,
      diagnostics: [diagnostic],
      // A machine-applicable fix is the checker's single answer to its diagnostic: the editor may
      // apply it directly (as `check --fix` does); any other fix is offered, not preferred.
      isPreferred: isMachineApplicable(d.fix),
      edit: {
        changes: {
          [uri]: d.fix.edits.map((e) => ({ range: positions.fromPublicRange(e), newText: e.new_text })),
        },
      },
    });
  }
  return actions;
}

/** Whether two ranges overlap or touch (a cursor at either end of a diagnostic counts). */
function touches(a: Range, b: Range): boolean {
  return !(before(a.end, b.start) || before(b.end, a.start));
}

function before(p: Range["start"], q: Range["start"]): boolean {
  return p.line < q.line || (p.line === q.line && p.character < q.character);
}
