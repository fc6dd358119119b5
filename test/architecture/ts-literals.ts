// The string literals of a TypeScript text, for the architecture tests that look for names in
// code: comments, strings, templates and regular expressions are told apart, so a name in a
// comment or inside a longer text is not a literal of its own.

/** A string literal of the source: its text (escapes kept as written) and line. */
export interface Literal {
  readonly text: string;
  readonly line: number;
}

/** After these characters a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set([
  "",
  "(",
  ",",
  "=",
  ":",
  "[",
  "!",
  "&",
  "|",
  "?",
  "{",
  "}",
  ";",
  "+",
  "-",
  "*",
  "%",
  "<",
  ">",
  "~",
  "^",
]);

/**
 * The string literals of a TypeScript text: '…', "…" and `…` without substitutions (the code
 * inside a template's `${…}` is lexed too). Comments and regular expressions are skipped.
 */
export function literals(text: string): Literal[] {
  const out: Literal[] = [];
  let line = 1;
  let i = 0;
  let last = ""; // the last significant character outside literals and comments
  const braces: number[] = []; // open `{` count of each template substitution being lexed
  const quoted = (quote: string): string => {
    const start = i;
    i += 1;
    while (i < text.length && text[i] !== quote) {
      if (text[i] === "\\") i += 1;
      else if (text[i] === "\n") line += 1;
      i += 1;
    }
    i += 1;
    return text.slice(start + 1, i - 1);
  };
  /** From just after a "`" or a substitution's "}": the template's text up to "`" or "${". */
  const templatePart = (): { readonly text: string; readonly ends: boolean } => {
    const start = i;
    while (i < text.length && text[i] !== "`" && !(text[i] === "$" && text[i + 1] === "{")) {
      if (text[i] === "\\") i += 1;
      else if (text[i] === "\n") line += 1;
      i += 1;
    }
    const part = text.slice(start, i);
    if (text[i] === "`") {
      i += 1;
      return { text: part, ends: true };
    }
    i += 2;
    braces.push(0);
    return { text: part, ends: false };
  };
  while (i < text.length) {
    const c = text[i] ?? "";
    const next = text[i + 1] ?? "";
    if (c === "\n") {
      line += 1;
      i += 1;
    } else if (c === "/" && next === "/") {
      while (i < text.length && text[i] !== "\n") i += 1;
    } else if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      for (const ch of text.slice(i, stop)) if (ch === "\n") line += 1;
      i = stop;
    } else if (c === "'" || c === '"') {
      const at = line;
      out.push({ text: quoted(c), line: at });
      last = c;
    } else if (c === "`") {
      const at = line;
      i += 1;
      const part = templatePart();
      if (part.ends) out.push({ text: part.text, line: at });
      last = c;
    } else if (c === "}" && braces.length > 0 && braces[braces.length - 1] === 0) {
      braces.pop();
      i += 1;
      templatePart();
      last = "`";
    } else if (c === "/" && BEFORE_REGEX.has(last)) {
      i += 1;
      let inClass = false;
      while (i < text.length && (inClass || text[i] !== "/") && text[i] !== "\n") {
        if (text[i] === "\\") i += 1;
        else if (text[i] === "[") inClass = true;
        else if (text[i] === "]") inClass = false;
        i += 1;
      }
      i += 1;
      last = "/re";
    } else {
      if (braces.length > 0 && c === "{") braces[braces.length - 1]! += 1;
      if (braces.length > 0 && c === "}") braces[braces.length - 1]! -= 1;
      if (!/\s/.test(c)) last = /[A-Za-z0-9_$)\]]/.test(c) ? "word" : c;
      i += 1;
    }
  }
  return out;
}
