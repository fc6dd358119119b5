// JSON with comments, as VS Code reads settings.json: `//` and `/* */` comments and trailing commas
// are allowed. `stratumc init` edits such a file by inserting text only, so the user's comments,
// order and layout are kept; a file that is not valid JSONC is refused with its line and column.

export type JsoncNode =
  | {
      readonly kind: "object";
      readonly start: number;
      /** One past the closing brace. */
      readonly end: number;
      readonly members: readonly JsoncMember[];
      /** The offset of a comma after the last member (trailing comma), or null. */
      readonly trailingComma: number | null;
    }
  | { readonly kind: "array"; readonly start: number; readonly end: number }
  | { readonly kind: "scalar"; readonly start: number; readonly end: number; readonly value: unknown };

export interface JsoncMember {
  readonly key: string;
  readonly keyStart: number;
  readonly value: JsoncNode;
}

export class JsoncError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Parses a whole JSONC text (one value, surrounded by blanks and comments). */
export function parseJsonc(text: string): JsoncNode {
  const p = new Parser(text);
  p.skip();
  const value = p.value();
  p.skip();
  if (p.at < text.length) throw new JsoncError("unexpected text after the value", p.at);
  return value;
}

class Parser {
  at = 0;
  constructor(private readonly text: string) {}

  skip(): void {
    const t = this.text;
    for (;;) {
      while (this.at < t.length && /\s/.test(t[this.at] as string)) this.at++;
      if (t.startsWith("//", this.at)) {
        while (this.at < t.length && t[this.at] !== "\n" && t[this.at] !== "\r") this.at++;
      } else if (t.startsWith("/*", this.at)) {
        const close = t.indexOf("*/", this.at + 2);
        if (close < 0) throw new JsoncError("unterminated comment", this.at);
        this.at = close + 2;
      } else return;
    }
  }

  value(): JsoncNode {
    const c = this.text[this.at];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') {
      const start = this.at;
      const value = this.string();
      return { kind: "scalar", start, end: this.at, value };
    }
    const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      this.text.slice(this.at),
    );
    if (m === null) {
      throw new JsoncError(c === undefined ? "unexpected end of the text" : `unexpected '${c}'`, this.at);
    }
    const start = this.at;
    this.at += m[0].length;
    return { kind: "scalar", start, end: this.at, value: JSON.parse(m[0]) };
  }

  string(): string {
    const m = /^"(?:[^"\\]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.exec(this.text.slice(this.at));
    // A raw control character (a line break included) is not allowed inside a JSON string.
    if (m === null || [...m[0]].some((ch) => ch.charCodeAt(0) < 0x20))
      throw new JsoncError("invalid string", this.at);
    this.at += m[0].length;
    return JSON.parse(m[0]) as string;
  }

  object(): JsoncNode {
    const start = this.at++;
    const members: JsoncMember[] = [];
    let trailingComma: number | null = null;
    for (;;) {
      this.skip();
      if (this.text[this.at] === "}") break;
      if (members.length > 0 && trailingComma === null) throw new JsoncError("expected ',' or '}'", this.at);
      if (this.text[this.at] !== '"')
        throw new JsoncError("expected a property name in double quotes", this.at);
      const keyStart = this.at;
      const key = this.string();
      this.skip();
      if (this.text[this.at] !== ":") throw new JsoncError("expected ':'", this.at);
      this.at++;
      this.skip();
      members.push({ key, keyStart, value: this.value() });
      this.skip();
      trailingComma = null;
      if (this.text[this.at] === ",") trailingComma = this.at++;
    }
    this.at++;
    return { kind: "object", start, end: this.at, members, trailingComma };
  }

  array(): JsoncNode {
    const start = this.at++;
    let first = true;
    let comma = false;
    for (;;) {
      this.skip();
      if (this.text[this.at] === "]") break;
      if (!first && !comma) throw new JsoncError("expected ',' or ']'", this.at);
      this.value();
      first = false;
      this.skip();
      comma = this.text[this.at] === ",";
      if (comma) this.at++;
    }
    this.at++;
    return { kind: "array", start, end: this.at };
  }
}

/** The member named `key` (the last one, as JSON.parse keeps it). */
export function member(node: JsoncNode, key: string): JsoncMember | undefined {
  if (node.kind !== "object") return undefined;
  return node.members.filter((m) => m.key === key).pop();
}

/**
 * The text with `"key": value` added as the last member of `object`, indented like its members
 * (or one step deeper than the object's line), comments and layout untouched.
 */
export function insertMember(text: string, object: JsoncNode, key: string, value: unknown): string {
  if (object.kind !== "object") throw new Error("not an object");
  const objectIndent = indentAt(text, object.start);
  const last = object.members[object.members.length - 1];
  const indent = last !== undefined ? indentAt(text, last.keyStart) : `${objectIndent}  `;
  const step = indent.length > objectIndent.length ? indent.slice(objectIndent.length) : "  ";
  const body = JSON.stringify(value, null, step).replace(/\n/g, `\n${indent}`);
  const entry = `${JSON.stringify(key)}: ${body}`;
  if (last === undefined) {
    // `{}` or `{ /* comment */ }`: right after the brace.
    return `${text.slice(0, object.start + 1)}\n${indent}${entry}\n${objectIndent}${text.slice(object.start + 1)}`;
  }
  const valueEnd = last.value.end;
  const after = object.trailingComma !== null ? object.trailingComma + 1 : valueEnd;
  // After a comment that ends the last member's line, so the comment stays with its member.
  const at = lineEndAfterComments(text, after, object.end - 1);
  const comma = object.trailingComma !== null ? "" : ",";
  return `${text.slice(0, valueEnd)}${comma}${text.slice(valueEnd, at)}\n${indent}${entry}${text.slice(at)}`;
}

/** The end of the line at `from` when only blanks and comments follow there (before `limit`), else `from`. */
function lineEndAfterComments(text: string, from: number, limit: number): number {
  let i = from;
  for (;;) {
    while (i < limit && (text[i] === " " || text[i] === "\t")) i++;
    if (text.startsWith("//", i)) {
      while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i++;
      return i;
    }
    if (text.startsWith("/*", i)) {
      const close = text.indexOf("*/", i + 2);
      if (close < 0 || /[\r\n]/.test(text.slice(i, close))) return from;
      i = close + 2;
      continue;
    }
    return text[i] === "\n" || text[i] === "\r" ? i : from;
  }
}

/** The blanks that start the line holding `offset`. */
function indentAt(text: string, offset: number): string {
  let s = offset;
  while (s > 0 && text[s - 1] !== "\n" && text[s - 1] !== "\r") s--;
  return /^[ \t]*/.exec(text.slice(s))?.[0] ?? "";
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: before.length, column: [...(before[before.length - 1] ?? "")].length + 1 };
}
