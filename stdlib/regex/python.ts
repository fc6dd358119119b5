// Python `re` patterns (the reference's guardrails) run on RE2: python-parse.ts decides validity
// exactly as CPython 3.11's `re.compile` and gives its error text; python-re2.ts translates a
// valid pattern for RE2, whose matching time is linear in the text whatever the pattern. A valid
// pattern RE2 cannot run (a backreference, a lookaround, …) is "unsupported", with the reason.
import { RE2JS } from "re2js";
import type { PyFlags, PyReError } from "./python-ast";
import { parsePython } from "./python-parse";
import { pythonToRe2 } from "./python-re2";

export type PythonPattern =
  | { readonly kind: "linear"; readonly search: (text: string) => boolean }
  | { readonly kind: "unsupported"; readonly reason: string }
  /** `message` is str(re.error): "<why> at position N" as Python writes it. */
  | { readonly kind: "invalid"; readonly message: string };

const cache = new Map<string, PythonPattern>();
const CACHE_LIMIT = 1000;

/** The pattern compiled as `re.compile(pattern, flags)` (cached by flags and text). */
export function pythonPattern(pattern: string, flags: Partial<PyFlags> = {}): PythonPattern {
  const key = `${flags.i === true ? "i" : ""}${flags.m === true ? "m" : ""}${flags.s === true ? "s" : ""}${flags.x === true ? "x" : ""}${flags.a === true ? "a" : ""}:${pattern}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const compiled = compile(pattern, flags);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, compiled);
  return compiled;
}

function compile(pattern: string, flags: Partial<PyFlags>): PythonPattern {
  const parsed = parsePython(pattern, flags);
  if (!parsed.ok) return { kind: "invalid", message: pythonErrorText(pattern, parsed.error) };
  const translated = pythonToRe2(parsed.pattern);
  if (!translated.ok) return { kind: "unsupported", reason: translated.reason };
  try {
    const re = RE2JS.compile(translated.source);
    return { kind: "linear", search: (text) => re.test(text) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "unsupported", reason: `a construct RE2 rejects (${message})` };
  }
}

/** str() of Python's re.error: the position, and line and column when the pattern has several lines. */
function pythonErrorText(pattern: string, error: PyReError): string {
  if (error.position === null) return error.message;
  const chars = Array.from(pattern);
  const text = `${error.message} at position ${error.position}`;
  if (!chars.includes("\n")) return text;
  const before = chars.slice(0, error.position);
  const line = before.filter((c) => c === "\n").length + 1;
  const column = line === 1 ? error.position + 1 : error.position - before.lastIndexOf("\n");
  return `${text} (line ${line}, column ${column})`;
}

/** A guardrail: compiled with re.IGNORECASE | re.MULTILINE, as the reference (docs/reference/runtime.md §25.1). */
export function guardrailPattern(pattern: string): PythonPattern {
  return pythonPattern(pattern, { i: true, m: true });
}
