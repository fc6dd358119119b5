// A step kind is data (checker/base/step-kinds.ts) plus one descriptor per layer: in the
// interpreter and the host, only `interpreter/flow/kinds/` (the descriptors, the registry and each
// kind's own files) names a kind as a string literal. Everywhere else code asks the registry
// (FLOW_KINDS) what a step does. Literals are found by a small lexer (comments, strings, templates
// and regular expressions told apart), so a kind named in a comment or inside a longer text
// ("race_pending", "not parallel_dispatch") is not a hit.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { STEP_KINDS } from "../../checker";
import { REPO } from "./cruise";

/** The layers this test polices. */
const FOLDERS = ["interpreter", "host"];

/** Kinds whose names are everyday words of the runtime (a gate's record, `function_name`, a sub-flow's child, …). */
const EXEMPT: Readonly<Record<string, string>> = {
  function: "also a step_mode, a payload key and a function step's record field",
  flow: "also the sub-flow machinery's word for a child flow",
  inline: "too common a word to police",
  gate: "also gate resolution's tool, record type and persisted status",
};

/** Where kinds are named: the kinds' own folder (the table itself is the checker's). */
const ALLOWED = (file: string): boolean => /(^|\/)kinds\//.test(file);

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...tsFiles(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** A string literal of the source: its text (escapes kept as written) and line. */
interface Literal {
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
function literals(text: string): Literal[] {
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

/** Every string literal equal to a policed kind: `file:line "kind"`. */
function kindLiterals(file: string, text: string, kinds: ReadonlySet<string>): string[] {
  return literals(text)
    .filter((l) => kinds.has(l.text))
    .map((l) => `${file}:${l.line} ${JSON.stringify(l.text)}`);
}

const POLICED = new Set(STEP_KINDS.filter((k) => !Object.hasOwn(EXEMPT, k)));

function scan(): { readonly outside: string[]; readonly inside: string[] } {
  const outside: string[] = [];
  const inside: string[] = [];
  for (const folder of FOLDERS) {
    for (const path of tsFiles(join(REPO, folder))) {
      const file = relative(REPO, path).split("\\").join("/");
      const hits = kindLiterals(file, readFileSync(path, "utf8"), POLICED);
      (ALLOWED(file) ? inside : outside).push(...hits);
    }
  }
  return { outside, inside };
}

describe("step kind names in the interpreter and the host", () => {
  const { outside, inside } = scan();

  it("exempts only kinds of the table, each with its reason", () => {
    for (const kind of Object.keys(EXEMPT)) expect(STEP_KINDS).toContain(kind);
    expect(POLICED.size).toBe(STEP_KINDS.length - Object.keys(EXEMPT).length);
  });

  it("names no kind outside interpreter/flow/kinds/", () => {
    expect(outside).toEqual([]);
  });

  it("finds the kinds' own names in their descriptors (the scan sees literals)", () => {
    for (const kind of POLICED) {
      expect(inside.some((hit) => hit.endsWith(` ${JSON.stringify(kind)}`))).toBe(true);
    }
  });

  it("reports a literal with its file and line, and not a comment or a longer text", () => {
    const text = [
      '// a "race" in a comment',
      'const a = "race_pending";',
      "const b = `race`;",
      "type T = 'debate';",
    ].join("\n");
    expect(kindLiterals("x.ts", text, POLICED)).toEqual(['x.ts:3 "race"', 'x.ts:4 "debate"']);
  });
});
