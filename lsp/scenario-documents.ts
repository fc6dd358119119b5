// Scenario test files (`*.stratum-test.yaml`) in the editor: the same diagnostics `stratumc check`
// gives for such a file (TEST-*: its shape, its spec, the steps it answers, its results against the
// contracts). The spec named by `spec:` is the open document when the editor has it open (its
// unsaved text), else the file on disk. The spec services (completion, hover, …) are for specs and
// are not offered here.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Diagnostic as LspDiagnostic } from "vscode-languageserver/node";
import { checkScenario, SCENARIO_FILE } from "../checker/index";
import { toLspDiagnostic } from "./diagnostics";
import type { PositionIndex } from "./positions";

/** Whether a document is a scenario test file (by its name, as `stratumc test` finds them). */
export function isScenarioDocument(uri: string): boolean {
  return SCENARIO_FILE.test(uri);
}

export function scenarioDiagnostics(
  uri: string,
  text: string,
  positions: PositionIndex,
  openText: (uri: string) => string | undefined,
): LspDiagnostic[] {
  const check = checkScenario(text, (specPath) => {
    let path: string;
    try {
      path = resolve(dirname(fileURLToPath(uri)), specPath);
    } catch {
      return { ok: false, reason: "the test file is not on disk, so its spec cannot be found" };
    }
    const open = openText(pathToFileURL(path).href);
    if (open !== undefined) return { ok: true, text: open };
    try {
      return { ok: true, text: readFileSync(path, "utf8") };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return { ok: false, reason: code === "ENOENT" ? "file not found" : "cannot be read" };
    }
  });
  return check.diagnostics.map((d) => toLspDiagnostic(d, uri, positions));
}
