// Shared helpers for the interpreter tests: parse + compile + evaluate an expression and render
// the outcome as Python would print it: the repr of the value, or `<Kind>: <message>`.
import { parseExpression } from "../../../grammar/parse";
import { compileExpression } from "../../../interpreter/eval/compile";
import type { PathSource } from "../../../interpreter/eval/context";
import { evaluate } from "../../../interpreter/eval/evaluate";
import { PyError } from "../../../stdlib/values/errors";
import { parseJson } from "../../../stdlib/values/json";
import { makeNamespace } from "../../../stdlib/values/namespace";
import { repr } from "../../../stdlib/values/repr";
import { PyDict, type PyValue } from "../../../stdlib/values/value";

/** A JSON object bound as a namespace (as `result` / `item` are), anything else as is. */
function bound(json: string): PyValue {
  const v = parseJson(json);
  return v instanceof PyDict ? makeNamespace(v) : v;
}

/** The position names used by the table tests (also mirrored in the CPython agreement test). */
export const FIXTURE_JSON: Readonly<Record<string, string>> = {
  result: JSON.stringify({
    score: 0.85,
    approved: true,
    files_changed: ["a.ts", "b.ts"],
    items: [{ status: "complete" }, { status: "complete" }, { status: "failed" }],
    values: [3, 5, 7],
    min: 2,
    v: "bad",
    empty: [],
    none: null,
    nested: { a: { b: 1 }, items: "shadow", list: [10, 20] },
    text: "Hello World",
  }),
  item: JSON.stringify({ id: 7, tags: ["x", "y"] }),
  accumulator: JSON.stringify([1, 2, 3]),
  accumulated_count: "3",
  new_count: "1",
  dry_streak: "0",
};

export function fixtureNames(): Map<string, PyValue> {
  return new Map(Object.entries(FIXTURE_JSON).map(([k, v]) => [k, bound(v)]));
}

/** The paths example of docs/reference/language.md §10.5. */
export const EXAMPLE_PATHS: PathSource = {
  input(name) {
    const inputs: Record<string, PyValue> = { do_skip: true, name: "bob", list: parseJson("[10, [20, 30]]") };
    return inputs[name];
  },
  stepOutput(id) {
    if (id === "s1")
      return parseJson('{"skip": true, "label": "x", "nested": {"a": 1}, "arr": [1, {"k": 2}]}');
    if (id === "s2") return null;
    return undefined;
  },
};

export interface RunOptions {
  names?: ReadonlyMap<string, PyValue>;
  paths?: PathSource;
  budget?: number;
}

/** Evaluates `text`; returns the repr of the value or `<Kind>: <message>`. */
export function run(text: string, options: RunOptions = {}): string {
  const parsed = parseExpression(text);
  if (parsed.expr === null || parsed.diagnostics.length > 0) {
    throw new Error(
      `test expression does not parse: ${text.slice(0, 80)} ${JSON.stringify(parsed.diagnostics)}`,
    );
  }
  const compiled = compileExpression(parsed.expr);
  try {
    const value = evaluate(compiled, options.names ?? fixtureNames(), {
      paths: options.paths ?? EXAMPLE_PATHS,
      ...(options.budget === undefined ? {} : { budget: options.budget }),
    });
    return repr(value);
  } catch (e) {
    if (e instanceof PyError) return `${e.kind}: ${e.message}`;
    throw e;
  }
}
