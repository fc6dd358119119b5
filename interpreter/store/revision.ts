// The `revision` written in a flow file (docs/reference/runtime.md §14.1), read without decoding the whole flow: our layout
// ends with the top-level keys `revision` and `status` at two spaces of indentation, which no
// nested value can imitate (strings escape their line breaks). Other layouts (the reference's
// files have no `revision`) fall back to a full parse.
import { JsonSyntaxError, parseJson } from "../../stdlib/values/json";
import { PyDict } from "../../stdlib/values/value";

const TAIL = /\n {2}"revision": (0|[1-9][0-9]*),\n {2}"status": "[a-z_]+"\n\}$/;
/** Longer than any tail TAIL can match (a 16-digit revision and the longest status). */
const TAIL_LENGTH = 80;

/**
 * The file's revision: 0 when it has none (a file written by the reference), null when the text
 * is not a JSON object or its revision is not a non-negative integer (a damaged file).
 */
export function revisionOf(text: string): number | null {
  const tail = TAIL.exec(text.slice(-TAIL_LENGTH));
  if (tail !== null) {
    const n = Number(tail[1]);
    if (Number.isSafeInteger(n)) return n;
  }
  let value: ReturnType<typeof parseJson>;
  try {
    value = parseJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return null;
    throw e;
  }
  if (!(value instanceof PyDict)) return null;
  const entry = value.entries.get("revision");
  if (entry === undefined) return 0;
  const n = entry[1];
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** A delta's leading `{"revision": r,` (encodeDelta writes it first). */
const DELTA_HEAD = /^\{"revision": (0|[1-9][0-9]{0,15}),/;

/** The revision a delta text leads to, without decoding it; null when it does not start like one. */
export function deltaRevisionOf(text: string): number | null {
  const head = DELTA_HEAD.exec(text.slice(0, 40));
  if (head === null) return null;
  const n = Number(head[1]);
  return Number.isSafeInteger(n) ? n : null;
}
