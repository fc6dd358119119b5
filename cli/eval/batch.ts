// `stratumc eval --batch FILE.jsonl`: one case per input line, one JSON line out per input line,
// in order, all in one process (for differential testing against CPython).
//
// in:  {"expr": "...", "bindings": {...}, "input": {...}, "steps": {...}}   (all but expr optional)
// out: {"repr": "..."} | {"error": "<Kind>: <message>"}, plus "static": [codes] when the checker
//      reported errors (the case is still evaluated), or {"error": "SyntaxError: …", "code": …}
//      for a parse error, or {"error": "InputError: …"} for a malformed line.
import { checkExpression, type ExprCheckResult } from "../../checker/index";
import { parseExpression } from "../../grammar/index";
import { compileExpression, evaluate, MAX_VALUE_DEPTH } from "../../interpreter/index";
import type { FileAccess } from "../../stdlib/index";
import { PyDict, PyError, type PyValue, parseJson, repr } from "../../stdlib/index";
import { bindNames, type EvalCase, jsonKind, pathSource, typeEnvironment } from "./case";
import { syntaxDetail } from "./syntax-detail";

type BatchResult =
  | { readonly repr: string; readonly static?: readonly string[] }
  | { readonly error: string; readonly code?: string; readonly static?: readonly string[] };

const PARSE_CODES: ReadonlySet<string> = new Set(["EXPR-SYNTAX", "EXPR-TOO-LONG", "EXPR-TOO-DEEP"]);
const CASE_KEYS = ["expr", "bindings", "input", "steps"] as const;

/** Runs every line of `lines` and writes one result line per input line. */
export async function runBatch(
  lines: AsyncIterable<string>,
  files: FileAccess | null,
  write: (line: string) => void,
): Promise<void> {
  for await (const line of lines) write(`${resultLine(batchLine(line, files))}\n`);
}

/** One result as JSON with Python's default separators (`{"repr": "2"}`, as json.dumps prints). */
function resultLine(result: BatchResult): string {
  const fields = Object.entries(result).map(([key, value]) => {
    const text = Array.isArray(value)
      ? `[${value.map((v) => JSON.stringify(v)).join(", ")}]`
      : JSON.stringify(value);
    return `${JSON.stringify(key)}: ${text}`;
  });
  return `{${fields.join(", ")}}`;
}

/** The result of one input line; never throws. */
function batchLine(line: string, files: FileAccess | null): BatchResult {
  let c: EvalCase;
  try {
    c = readCase(line);
  } catch (e) {
    return { error: `InputError: ${e instanceof Error ? e.message : String(e)}` };
  }
  try {
    return runCase(c, files);
  } catch (e) {
    // A bug for this one case must not end the batch: report it on its line and go on.
    return { error: `InternalError: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function runCase(c: EvalCase, files: FileAccess | null): BatchResult {
  const checked = checkExpression(c.text, typeEnvironment(c.names));
  const parseError = syntaxErrorOf(c.text, checked);
  if (parseError) return parseError;
  if (checked.expr === null) throw new Error("the checker returned no syntax tree and no syntax error");
  const codes = checked.diagnostics.filter((d) => d.severity === "error").map((d) => d.code);
  const staticCodes = codes.length > 0 ? { static: codes } : {};
  const compiled = compileExpression(checked.expr);
  try {
    return { repr: repr(evaluate(compiled, c.names, { paths: c.paths, files })), ...staticCodes };
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    return { error: `${e.kind}: ${e.message}`, ...staticCodes };
  }
}

function syntaxErrorOf(text: string, checked: ExprCheckResult): BatchResult | null {
  const reported = checked.diagnostics.find((d) => PARSE_CODES.has(d.code));
  if (!reported) return null;
  // The checker's message embeds the whole expression; the parser has the bare detail.
  const first = parseExpression(text).diagnostics[0];
  if (!first) return { error: `SyntaxError: ${reported.message}`, code: reported.code };
  return { error: `SyntaxError: ${syntaxDetail(first)}`, code: first.code };
}

function readCase(line: string): EvalCase {
  let value: PyValue;
  try {
    value = parseJson(line, { maxDepth: MAX_VALUE_DEPTH });
  } catch (e) {
    throw new Error(`invalid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!(value instanceof PyDict)) throw new Error(`expected a JSON object, got ${jsonKind(value)}`);
  const fields = new Map<string, PyValue>();
  for (const [key, v] of value.entries.values()) {
    const name = String(key);
    if (!(CASE_KEYS as readonly string[]).includes(name)) {
      throw new Error(`unknown key '${name}' (expected ${CASE_KEYS.join(", ")})`);
    }
    fields.set(name, v);
  }
  const text = fields.get("expr");
  if (text === undefined) throw new Error(`missing key 'expr'`);
  if (typeof text !== "string") throw new Error(`'expr' must be a string, got ${jsonKind(text)}`);
  return {
    text,
    names: bindNames(objectField(fields, "bindings")),
    paths: pathSource(objectField(fields, "input"), objectField(fields, "steps")),
  };
}

function objectField(fields: ReadonlyMap<string, PyValue>, key: string): PyDict | null {
  const v = fields.get(key);
  if (v === undefined) return null;
  if (!(v instanceof PyDict)) throw new Error(`'${key}' must be an object, got ${jsonKind(v)}`);
  return v;
}
