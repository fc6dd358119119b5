// `expect.output`: a subset match. Every key the test writes must be in the output with a value
// that matches: mappings match as subsets again, every other value by Python equality.

import { nodeValue, type SourceRange, type SpecNode } from "../../checker/index";
import { dictGetStr } from "../../stdlib/values/dict";
import { pyEquals } from "../../stdlib/values/equality";
import { repr } from "../../stdlib/values/repr";
import { PyDict, type PyValue } from "../../stdlib/values/value";

export interface Mismatch {
  /** `output.url`, `output.meta.size`. */
  readonly path: string;
  readonly range: SourceRange;
  readonly expected: string;
  readonly actual: string;
}

export function firstMismatch(
  expected: SpecNode,
  actual: PyValue | undefined,
  path: string,
): Mismatch | null {
  if (expected.kind === "map") {
    if (!(actual instanceof PyDict)) {
      return { path, range: expected.range, expected: "a mapping", actual: describe(actual) };
    }
    for (const entry of expected.entries) {
      const key = entry.name ?? "";
      const child = dictGetStr(actual, key);
      const at = `${path}.${key}`;
      if (child === undefined) {
        return {
          path: at,
          range: entry.key.range,
          expected: repr(nodeValue(entry.value)),
          actual: "no such key",
        };
      }
      const m = firstMismatch(entry.value, child, at);
      if (m !== null) return m;
    }
    return null;
  }
  const want = nodeValue(expected);
  if (actual !== undefined && pyEquals(want, actual)) return null;
  return { path, range: expected.range, expected: repr(want), actual: describe(actual) };
}

function describe(v: PyValue | undefined): string {
  return v === undefined ? "nothing" : repr(v);
}
