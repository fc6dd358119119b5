// The structured result of a `stratum_agent_run` call given a `schema`
// (docs/reference/runtime.md §16.6), as the reference extracts it: the whole text as JSON, else the last ```json fenced
// block. The text is the agent's, so untrusted: its nesting is counted before it is parsed and
// its values after (interpreter/limits.ts); past a limit it is no result, with the reason. Numbers
// keep their kind (1.0 stays a float), as Python's json.loads keeps them.
import { jsonTextDepth, MAX_VALUE_DEPTH, tooDeep, valueLimitProblem } from "../../interpreter";
import { type PyValue, parseJson } from "../../stdlib";

export type JsonResult =
  | { readonly ok: true; readonly result: PyValue }
  | { readonly ok: false; readonly parseError: string };

const JSON_BLOCK = /```json\s*\n([\s\S]*?)\n\s*```/g;
const NOT_JSON = "Response was not valid JSON";

export function extractJsonResult(text: string): JsonResult {
  const whole = parsed(text);
  if (whole !== undefined) return whole;
  const blocks = [...text.matchAll(JSON_BLOCK)];
  const last = blocks[blocks.length - 1]?.[1];
  if (last !== undefined) {
    const block = parsed(last);
    if (block !== undefined) return block;
  }
  return { ok: false, parseError: NOT_JSON };
}

/** The text's JSON value; undefined when it is not JSON; a parse error when past a limit. */
function parsed(text: string): JsonResult | undefined {
  const depth = jsonTextDepth(text);
  if (depth > MAX_VALUE_DEPTH) return { ok: false, parseError: `${NOT_JSON}: ${tooDeep(depth)}` };
  let value: PyValue;
  try {
    value = parseJson(text.trim());
  } catch {
    return undefined;
  }
  const problem = valueLimitProblem("result", value);
  return problem === null
    ? { ok: true, result: value }
    : { ok: false, parseError: `${NOT_JSON}: ${problem}` };
}
