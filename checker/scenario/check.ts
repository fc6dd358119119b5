// Checking a scenario test file: load it (TEST-SCHEMA), read and check the spec it names through
// the caller's reader (the checker does no I/O: the CLI reads files, the language server its
// open documents and the disk), then validate the tests against that spec. Never throws.
import type { CheckResult } from "../check-spec";
import { checkSpec, present } from "../check-spec";
import type { Diagnostic } from "../diagnostic";
import type { CheckedSpec } from "../ir/types";
import { DiagnosticSink } from "../report";
import { SpecSource } from "../source";
import { loadScenario } from "./load";
import type { ScenarioFile } from "./model";
import { TEST_SPEC } from "./TEST-SPEC";
import { validateScenario } from "./validate";

/** What the caller's reader answers for `spec:` (a path relative to the test file, as written). */
export type SpecRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: string };

export interface ScenarioCheck {
  readonly source: SpecSource;
  /** No error-severity diagnostic: the tests may run. */
  readonly valid: boolean;
  readonly diagnostics: readonly Diagnostic[];
  /** The loaded file (null when its shape did not allow one). */
  readonly file: ScenarioFile | null;
  /** The spec named by `spec:`, when it could be read and checked without errors. */
  readonly spec: { readonly text: string; readonly checked: CheckResult; readonly ir: CheckedSpec } | null;
}

export function checkScenario(text: string, readSpec: (path: string) => SpecRead): ScenarioCheck {
  const source = new SpecSource(text);
  const sink = new DiagnosticSink();
  const file = loadScenario(source, sink);
  let spec: ScenarioCheck["spec"] = null;
  if (file !== null) {
    const read = readSpec(file.spec.value);
    if (!read.ok) {
      sink.report(TEST_SPEC, {
        message: TEST_SPEC.message(`cannot read the spec '${file.spec.value}': ${read.reason}`),
        path: "spec",
        range: file.spec.range,
      });
    } else {
      const checked = checkSpec(read.text);
      if (checked.ir === null) {
        const first = checked.errors[0];
        const where =
          first === undefined
            ? ""
            : ` (first: ${first.line}:${first.column} ${first.message} [${first.code}])`;
        sink.report(TEST_SPEC, {
          message: TEST_SPEC.message(
            `the spec '${file.spec.value}' has ${checked.errors.length} error(s)${where}; run \`stratumc check\` on it`,
          ),
          path: "spec",
          range: file.spec.range,
        });
      } else {
        spec = { text: read.text, checked, ir: checked.ir };
        validateScenario(file, checked.ir, sink);
      }
    }
  }
  const diagnostics = present(source, sink.diagnostics);
  return {
    source,
    valid: !diagnostics.some((d) => d.severity === "error"),
    diagnostics,
    file,
    spec,
  };
}
