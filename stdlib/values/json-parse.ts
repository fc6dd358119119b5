// JSON decoding (docs/reference/language.md §10.7.2): int/float distinction kept, exact big ints, duplicate keys
// last wins, NaN/Infinity accepted as Python's json does. Iterative, so deep nesting cannot
// overflow the stack; `maxDepth` refuses deeper text at the bracket that passes the limit, so a
// caller whose later code recurses over the value never receives one it cannot handle.
import { dictSet } from "./dict";
import { parseJsonNative } from "./json-parse-native";
import { normInt, PyDict, PyFloat, type PyValue } from "./value";

export class JsonSyntaxError extends SyntaxError {
  constructor(
    readonly detail: string,
    readonly position: number,
    text: string,
  ) {
    const before = text.slice(0, position);
    const line = before.split("\n").length;
    const column = position - before.lastIndexOf("\n");
    super(`${detail}: line ${line} column ${column} (char ${position})`);
  }
}

/** The text nests arrays and objects deeper than the caller allows (`[]` is 1 level). */
export class JsonDepthError extends JsonSyntaxError {
  constructor(
    readonly limit: number,
    position: number,
    text: string,
  ) {
    super(
      `nested more than ${String(limit).replace(/\B(?=(\d{3})+(?!\d))/g, ",")} levels deep`,
      position,
      text,
    );
  }
}

export interface ParseJsonOptions {
  /** Levels of arrays and objects allowed; deeper text throws JsonDepthError. */
  readonly maxDepth?: number;
  /**
   * Whether `NaN`, `Infinity` and `-Infinity` are values (Python's json: the default); false
   * refuses them as standard JSON (JSON.parse) does.
   */
  readonly constants?: boolean;
}

type Frame = { readonly list: PyValue[] } | { readonly dict: PyDict; key: string };

const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: raw control characters end a JSON string run
const PLAIN_CHARS = /[^"\\\u0000-\u001f]*/y;
const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

export function parseJson(text: string, options: ParseJsonOptions = {}): PyValue {
  // The same values and kinds, from the engine's JSON.parse, whenever that can be promised
  // (json-parse-native.ts); else, and for every error, the parser below.
  return (
    parseJsonNative(text, options.maxDepth ?? Number.POSITIVE_INFINITY) ?? parseJsonReference(text, options)
  );
}

/** The parser in script: every text, every error message; parseJson's fast path must agree with it. */
export function parseJsonReference(text: string, options: ParseJsonOptions = {}): PyValue {
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const literals = options.constants === false ? STANDARD_LITERALS : LITERALS;
  let i = 0;
  const fail = (detail: string, at = i): never => {
    throw new JsonSyntaxError(detail, at, text);
  };
  const ws = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };
  const parseString = (): string => {
    const start = i;
    i++; // opening quote
    let out = "";
    for (;;) {
      PLAIN_CHARS.lastIndex = i;
      PLAIN_CHARS.exec(text);
      out += text.slice(i, PLAIN_CHARS.lastIndex);
      i = PLAIN_CHARS.lastIndex;
      const c = text[i];
      if (c === '"') {
        i++;
        return out;
      }
      if (c === undefined) return fail("Unterminated string starting at", start);
      if (c !== "\\") return fail("Invalid control character at");
      const e = text[i + 1];
      if (e === "u") {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) return fail("Invalid \\uXXXX escape", i + 1);
        out += String.fromCharCode(Number.parseInt(hex, 16));
        i += 6;
      } else {
        const r = e === undefined ? undefined : ESCAPES[e];
        if (r === undefined) return fail("Invalid \\escape", i);
        out += r;
        i += 2;
      }
    }
  };
  const parseKey = (): string => {
    ws();
    if (text[i] !== '"') fail("Expecting property name enclosed in double quotes");
    const key = parseString();
    ws();
    if (text[i] !== ":") fail("Expecting ':' delimiter");
    i++;
    return key;
  };
  const parseScalar = (): PyValue => {
    const c = text[i];
    if (c === '"') return parseString();
    for (const [word, value] of literals) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null) return fail("Expecting value");
    i = NUMBER.lastIndex;
    if (m[1] !== undefined || m[2] !== undefined) return new PyFloat(Number(m[0]));
    return m[0].length <= 15 ? Number(m[0]) + 0 : normInt(BigInt(m[0])); // ≤ 15 chars is always safe
  };

  const stack: Frame[] = [];
  for (;;) {
    ws();
    let value: PyValue;
    const c = text[i];
    if ((c === "[" || c === "{") && stack.length + 1 > maxDepth) throw new JsonDepthError(maxDepth, i, text);
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        value = [];
      } else {
        stack.push({ list: [] });
        continue;
      }
    } else if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        value = new PyDict();
      } else {
        stack.push({ dict: new PyDict(), key: parseKey() });
        continue;
      }
    } else value = parseScalar();

    // Attach the value to the enclosing containers, closing those that end here.
    for (;;) {
      const top = stack[stack.length - 1];
      ws();
      if (top === undefined) {
        if (i !== text.length) fail("Extra data");
        return value;
      }
      if ("list" in top) top.list.push(value);
      else dictSet(top.dict, top.key, value);
      const d = text[i];
      if (d === ",") {
        i++;
        if (!("list" in top)) top.key = parseKey();
        break;
      }
      if (("list" in top && d === "]") || (!("list" in top) && d === "}")) {
        i++;
        stack.pop();
        value = "list" in top ? top.list : top.dict;
        continue;
      }
      fail("Expecting ',' delimiter");
    }
  }
}

const LITERALS: readonly (readonly [string, PyValue])[] = [
  ["null", null],
  ["true", true],
  ["false", false],
  ["NaN", new PyFloat(Number.NaN)],
  ["Infinity", new PyFloat(Number.POSITIVE_INFINITY)],
  ["-Infinity", new PyFloat(Number.NEGATIVE_INFINITY)],
];
const STANDARD_LITERALS = LITERALS.slice(0, 3);
