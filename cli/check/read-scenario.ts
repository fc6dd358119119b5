// A scenario test file checked from disk: its `spec:` is read relative to the file's directory,
// with the same reading rules as a spec given to `check` (UTF-8, the size limit, regular files).
import { dirname, resolve } from "node:path";
import { checkScenario, type ScenarioCheck } from "../../checker/index";
import { readSpecFile } from "./read-spec";

export function checkScenarioText(path: string, text: string): ScenarioCheck {
  return checkScenario(text, (specPath) => {
    const read = readSpecFile(resolve(dirname(path), specPath));
    if (!read.ok) return { ok: false, reason: read.reason };
    if (read.text === undefined) return { ok: false, reason: "over the spec size limit" };
    return { ok: true, text: read.text };
  });
}
