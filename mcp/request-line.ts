// One parse of a request line. A `tools/call` request is parsed once, kind-preservingly
// (docs/reference/language.md §10.7.2: `1.0` in a result stays a float, big integers stay exact), and the
// message object the SDK routes is built from that parse: its envelope exactly as JSON.parse gives
// it, its `params.arguments` as plain data down to the levels the argument schemas look at (deeper
// containers stay the decoded values, so a big result is never converted). The decoded arguments
// go on with the message, so the server never parses the line again. Any other line is JSON.parse's.
import {
  dictGetStr,
  JsonSyntaxError,
  PyDict,
  PyFloat,
  type PyValue,
  parseJson,
  setOwnProperty as setOwn,
} from "../stdlib/index";

export interface ParsedLine {
  /** The message as JSON.parse gives it (for a tools/call, `params.arguments` as schemaView makes it). */
  readonly json: unknown;
  /** A tools/call request's `params.arguments`, decoded kind-preservingly; undefined for any other line. */
  readonly toolArguments?: PyValue | undefined;
}

/** The line parsed once, or null when it is not JSON. */
export function parseRequestLine(line: string): ParsedLine | null {
  if (line.includes('"tools/call"')) {
    let value: PyValue;
    try {
      // Standard JSON, as JSON.parse reads it: no NaN or Infinity.
      value = parseJson(line, { constants: false });
    } catch (e) {
      if (e instanceof JsonSyntaxError) return null;
      throw e;
    }
    if (isToolCallRequest(value)) return toolCall(value);
    // Something else that mentions tools/call (rare): read as any other line.
  }
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return null;
  }
  // A tools/call whose method is written with escapes (`"tools\/call"`): parsed again, kind-preservingly.
  if (
    typeof json === "object" &&
    json !== null &&
    "id" in json &&
    "method" in json &&
    json.method === "tools/call"
  ) {
    const value = parseJson(line, { constants: false });
    if (isToolCallRequest(value)) return toolCall(value);
  }
  return { json };
}

function isToolCallRequest(value: PyValue): value is PyDict {
  return value instanceof PyDict && dictGetStr(value, "method") === "tools/call" && value.entries.has("id");
}

function toolCall(message: PyDict): ParsedLine {
  const json: Record<string, unknown> = {};
  let toolArguments: PyValue | undefined;
  for (const [key, value] of message.entries.values()) {
    if (key === "params" && value instanceof PyDict) {
      const params: Record<string, unknown> = {};
      for (const [name, v] of value.entries.values()) {
        if (name === "arguments") toolArguments = v;
        setOwn(params, String(name), name === "arguments" ? schemaView(v, SCHEMA_LEVELS) : asJson(v));
      }
      setOwn(json, "params", params);
    } else {
      setOwn(json, String(key), asJson(value));
    }
  }
  return { json, toolArguments };
}

/**
 * Levels of the arguments object the tools' schemas look at: the object, each argument, and the
 * items of an argument (`task_results[0]` must be an object), whose own values are left as they are.
 */
const SCHEMA_LEVELS = 3;

/**
 * The top `levels` levels of containers of a decoded value as plain data (floats as numbers, big
 * integers kept, objects without prototype, as wireToPlain makes them); containers below stay the
 * decoded values, which the schemas accept as `unknown`. Recursive over at most `levels` levels.
 */
function schemaView(value: PyValue, levels: number): unknown {
  if (value instanceof PyFloat) return value.v;
  if (levels === 0) return value;
  if (Array.isArray(value)) return value.map((x) => schemaView(x, levels - 1));
  if (value instanceof PyDict) {
    const object: Record<string, unknown> = Object.create(null);
    for (const [k, x] of value.entries.values()) object[String(k)] = schemaView(x, levels - 1);
    return object;
  }
  return value;
}

/**
 * A decoded value as JSON.parse would have given it: floats and big integers as numbers, objects
 * as plain objects. Iterative: a deep `_meta` cannot overflow the stack.
 */
function asJson(value: PyValue): unknown {
  const root: Record<string, unknown> = {};
  const work: {
    readonly v: PyValue;
    readonly into: Record<string | number, unknown>;
    readonly at: string | number;
  }[] = [{ v: value, into: root, at: "value" }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const { v, into, at } = item;
    let out: unknown;
    if (v instanceof PyFloat) out = v.v;
    else if (typeof v === "bigint") out = Number(v);
    else if (Array.isArray(v)) {
      const items: unknown[] = new Array(v.length).fill(null);
      v.forEach((x, i) => {
        work.push({ v: x, into: items as unknown as Record<number, unknown>, at: i });
      });
      out = items;
    } else if (v instanceof PyDict) {
      const object: Record<string, unknown> = {};
      for (const [k, x] of v.entries.values()) {
        setOwn(object, String(k), null);
        work.push({ v: x, into: object, at: String(k) });
      }
      out = object;
    } else out = v;
    setOwn(into, at, out);
  }
  return root.value;
}
