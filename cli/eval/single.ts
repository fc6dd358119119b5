// `stratumc eval '<expr>'`: check, then evaluate and print repr(value).
// Exit 0 with the repr on stdout; 1 with `<Kind>: <message>` on stderr for a run-time error;
// 2 with located diagnostics on stderr when the checker reports an error (warnings are printed too
// but do not stop the evaluation).
import { checkExpression } from "../../checker/index";
import { compileExpression, evaluate } from "../../interpreter/index";
import type { FileAccess } from "../../stdlib/index";
import { PyError, repr } from "../../stdlib/index";
import { EXIT_OK, EXIT_RUNTIME_ERROR, EXIT_USAGE } from "../exit-codes";
import { formatDiagnostics } from "../format/code-frame";
import { locateExprDiagnostics } from "../format/expr-diagnostics";
import type { Output } from "../output";
import { type EvalCase, typeEnvironment } from "./case";

/** The name diagnostics give the expression given on the command line. */
const EXPR_SOURCE_NAME = "<expr>";

export function evalSingle(c: EvalCase, files: FileAccess | null, io: Output): number {
  const checked = checkExpression(c.text, typeEnvironment(c.names));
  if (checked.diagnostics.length > 0) {
    io.err(formatDiagnostics(EXPR_SOURCE_NAME, c.text, locateExprDiagnostics(c.text, checked.diagnostics)));
  }
  if (checked.diagnostics.some((d) => d.severity === "error")) return EXIT_USAGE;
  if (checked.expr === null) throw new Error("the checker returned no syntax tree and no error");
  const compiled = compileExpression(checked.expr);
  try {
    const value = evaluate(compiled, c.names, { paths: c.paths, files });
    io.out(`${repr(value)}\n`);
    return EXIT_OK;
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    io.err(`${e.kind}: ${e.message}\n`);
    return EXIT_RUNTIME_ERROR;
  }
}
