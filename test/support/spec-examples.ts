// The specs under examples/: the clean ones and the broken ones with the diagnostics their header
// comments announce (`# expect: CODE at line N (severity)`).

import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { REPO_ROOT } from "./shared";

export const EXAMPLES_DIR = resolve(REPO_ROOT, "examples");
const BROKEN_DIR = resolve(EXAMPLES_DIR, "broken");

export interface ExampleSpec {
  /** File name, e.g. `debug-loop.stratum.yaml`. */
  readonly name: string;
  readonly path: string;
  readonly text: string;
}

export interface ExpectedDiagnostic {
  readonly code: string;
  readonly line: number;
  readonly severity: string;
}

function specsIn(dir: string): ExampleSpec[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".stratum.yaml"))
    .sort()
    .map((name) => {
      const path = resolve(dir, name);
      return { name, path, text: readFileSync(path, "utf8") };
    });
}

export function cleanExamples(): ExampleSpec[] {
  return specsIn(EXAMPLES_DIR);
}

export function brokenExamples(): ExampleSpec[] {
  return specsIn(BROKEN_DIR);
}

const EXPECT_LINE = /^# expect: ([A-Z][A-Z0-9-]*) at line (\d+) \((error|warning|info)\)$/;

/** The `# expect:` lines of a broken example's header, in the order written. */
export function expectedDiagnostics(text: string): ExpectedDiagnostic[] {
  const out: ExpectedDiagnostic[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    const m = EXPECT_LINE.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined && m[3] !== undefined) {
      out.push({ code: m[1], line: Number(m[2]), severity: m[3] });
    }
  }
  return out;
}
