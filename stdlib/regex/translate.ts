// ECMAScript (`u` flag) patterns → RE2 syntax with the same meaning, for a linear-time engine.
// JSON Schema's `pattern` and `patternProperties` are ECMA-262 regular expressions; RE2 differs in
// a few places, so the translation spells those out: `.` excludes every ECMAScript line terminator,
// `\s`/`\S` are ECMAScript's white space, escapes become `\x{…}`, every group is non-capturing (only
// "is there a match" is asked), property names are mapped to RE2's. A pattern RE2 cannot express —
// a backreference, a lookahead, an unknown property — is reported with the reason instead.
// The input must already be a valid `u`-flag pattern (`new RegExp(p, "u")` accepts it).

/** A translation: RE2 source (and whether it needs re2js's lookbehind flag), or why there is none. */
export type Translation =
  | { readonly ok: true; readonly source: string; readonly lookbehind: boolean }
  | { readonly ok: false; readonly reason: string };

const MAX_CP = 0x10ffff;
/** ECMAScript WhiteSpace and LineTerminator (the set of `\s`), as sorted inclusive ranges. */
const WHITE_SPACE: ReadonlyArray<readonly [number, number]> = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

const hex = (cp: number): string => `\\x{${cp.toString(16)}}`;
const rangeText = ([lo, hi]: readonly [number, number]): string =>
  lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`;

function complement(ranges: ReadonlyArray<readonly [number, number]>): Array<readonly [number, number]> {
  const out: Array<readonly [number, number]> = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

const SPACE_ITEMS = WHITE_SPACE.map(rangeText).join("");
const NON_SPACE_ITEMS = complement(WHITE_SPACE).map(rangeText).join("");
/** `.` without the `s` flag: anything but \n, \r, U+2028, U+2029. */
const DOT = `[^${hex(0x0a)}${hex(0x0d)}${hex(0x2028)}${hex(0x2029)}]`;
const ANY_ITEMS = `${hex(0)}-${hex(MAX_CP)}`;

/** General_Category values, long name → the short name RE2 knows. */
const CATEGORIES: Readonly<Record<string, string>> = {
  Letter: "L",
  Cased_Letter: "LC",
  Uppercase_Letter: "Lu",
  Lowercase_Letter: "Ll",
  Titlecase_Letter: "Lt",
  Modifier_Letter: "Lm",
  Other_Letter: "Lo",
  Mark: "M",
  Combining_Mark: "M",
  Nonspacing_Mark: "Mn",
  Spacing_Mark: "Mc",
  Enclosing_Mark: "Me",
  Number: "N",
  Decimal_Number: "Nd",
  digit: "Nd",
  Letter_Number: "Nl",
  Other_Number: "No",
  Punctuation: "P",
  punct: "P",
  Connector_Punctuation: "Pc",
  Dash_Punctuation: "Pd",
  Open_Punctuation: "Ps",
  Close_Punctuation: "Pe",
  Initial_Punctuation: "Pi",
  Final_Punctuation: "Pf",
  Other_Punctuation: "Po",
  Symbol: "S",
  Math_Symbol: "Sm",
  Currency_Symbol: "Sc",
  Modifier_Symbol: "Sk",
  Other_Symbol: "So",
  Separator: "Z",
  Space_Separator: "Zs",
  Line_Separator: "Zl",
  Paragraph_Separator: "Zp",
  Other: "C",
  Control: "Cc",
  cntrl: "Cc",
  Format: "Cf",
  Surrogate: "Cs",
  Private_Use: "Co",
  Unassigned: "Cn",
};
const SHORT_CATEGORIES = new Set(Object.values(CATEGORIES));

/** The binary properties RE2 has no name for but that are small fixed sets. */
const BINARY: Readonly<Record<string, ReadonlyArray<readonly [number, number]>>> = {
  Any: [[0, MAX_CP]],
  ASCII: [[0, 0x7f]],
  ASCII_Hex_Digit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
  AHex: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};

class Unsupported extends Error {}

/** The RE2 class items (no brackets) or a whole RE2 atom for `\p{…}` / `\P{…}`. */
function property(body: string, negated: boolean): { items: string | null; atom: string } {
  const eq = body.indexOf("=");
  const name = eq < 0 ? body : body.slice(0, eq);
  const value = eq < 0 ? body : body.slice(eq + 1);
  const letter = negated ? "P" : "p";
  let re2: string | null = null;
  if (eq < 0 || name === "General_Category" || name === "gc") {
    const short = SHORT_CATEGORIES.has(value) ? value : CATEGORIES[value];
    if (short !== undefined && short !== "LC" && short !== "Cs" && short !== "Cn") re2 = short;
    else if (eq < 0 && Object.hasOwn(BINARY, value)) {
      const ranges = BINARY[value] ?? [];
      const chosen = negated ? complement(ranges) : ranges;
      if (chosen.length === 0) return { items: null, atom: `[^${ANY_ITEMS}]` };
      const items = chosen.map(rangeText).join("");
      return { items, atom: `[${items}]` };
    }
  } else if (name === "Script" || name === "sc") {
    // RE2 knows scripts by their long names (Greek, Latin, …), as ECMAScript's canonical form.
    if (/^[A-Z][a-z]+(?:_[A-Z][a-z]+)*$/.test(value)) re2 = value;
  }
  if (re2 === null) throw new Unsupported(`the Unicode property \\${letter}{${body}}`);
  const item = `\\${letter}{${re2}}`;
  return { items: item, atom: item };
}

/** Translates a valid `u`-flag ECMAScript pattern. */
export function translatePattern(pattern: string): Translation {
  try {
    const state = { lookbehind: false };
    return { ok: true, source: new Translator(pattern, state).run(), lookbehind: state.lookbehind };
  } catch (error) {
    if (error instanceof Unsupported) return { ok: false, reason: error.message };
    return { ok: false, reason: "a construct this engine does not read" };
  }
}

class Translator {
  private i = 0;
  private readonly cps: number[];
  constructor(
    pattern: string,
    private readonly state: { lookbehind: boolean },
  ) {
    this.cps = Array.from(pattern, (c) => c.codePointAt(0) ?? 0);
  }

  private peek(offset = 0): string {
    const cp = this.cps[this.i + offset];
    return cp === undefined ? "" : String.fromCodePoint(cp);
  }

  private take(): string {
    const c = this.peek();
    this.i++;
    return c;
  }

  run(): string {
    let out = "";
    while (this.i < this.cps.length) {
      const c = this.take();
      switch (c) {
        case "\\":
          out += this.escapeOutside();
          break;
        case ".":
          out += DOT;
          break;
        case "[":
          out += this.characterClass();
          break;
        case "(":
          out += this.groupOpen();
          break;
        case "{":
          out += this.braces();
          break;
        case "^":
        case "$":
        case "|":
        case ")":
        case "*":
        case "+":
        case "?":
          out += c;
          break;
        default:
          out += /[A-Za-z0-9_ ]/.test(c) ? c : hex(c.codePointAt(0) ?? 0);
      }
    }
    return out;
  }

  private groupOpen(): string {
    if (this.peek() !== "?") return "(?:";
    const next = this.peek(1);
    if (next === ":") {
      this.i += 2;
      return "(?:";
    }
    if (next === "=" || next === "!") throw new Unsupported(`a lookahead (?${next}…)`);
    if (next === "<") {
      const after = this.peek(2);
      if (after === "=" || after === "!") {
        this.i += 3;
        this.state.lookbehind = true;
        return `(?<${after}`;
      }
      // A named group: its name is irrelevant to a yes/no search.
      while (this.i < this.cps.length && this.take() !== ">") {}
      return "(?:";
    }
    throw new Unsupported("a group modifier (?…)");
  }

  /** `{n}`, `{n,}`, `{n,m}` (a quantifier, the only use of `{` in `u` mode). */
  private braces(): string {
    let body = "";
    while (this.i < this.cps.length && this.peek() !== "}") body += this.take();
    this.i++;
    if (!/^\d+(,\d*)?$/.test(body)) throw new Unsupported(`the quantifier {${body}}`);
    const numbers = body
      .split(",")
      .filter((n) => n !== "")
      .map(Number);
    if (numbers.some((n) => n > 1000))
      throw new Unsupported(`the repetition count {${body}} (RE2's limit is 1000)`);
    return `{${body}}`;
  }

  /** The code point of a character escape after the backslash, or null when `c` starts none. */
  private characterEscape(c: string, inClass: boolean): number | null {
    switch (c) {
      case "t":
        return 0x09;
      case "n":
        return 0x0a;
      case "v":
        return 0x0b;
      case "f":
        return 0x0c;
      case "r":
        return 0x0d;
      case "0":
        return 0;
      case "b":
        return inClass ? 0x08 : null;
      case "-":
        return inClass ? 0x2d : null;
      case "c":
        return (this.take().codePointAt(0) ?? 0) % 32;
      case "x": {
        const digits = this.take() + this.take();
        return Number.parseInt(digits, 16);
      }
      case "u":
        return this.unicodeEscape();
      default:
        return "^$\\.*+?()[]{}|/".includes(c) ? (c.codePointAt(0) ?? 0) : null;
    }
  }

  private unicodeEscape(): number {
    if (this.peek() === "{") {
      this.i++;
      let digits = "";
      while (this.peek() !== "}") digits += this.take();
      this.i++;
      return Number.parseInt(digits, 16);
    }
    const four = (): number => Number.parseInt(this.take() + this.take() + this.take() + this.take(), 16);
    const first = four();
    if (first >= 0xd800 && first <= 0xdbff && this.peek() === "\\" && this.peek(1) === "u") {
      const save = this.i;
      this.i += 2;
      if (this.peek() !== "{") {
        const second = four();
        if (second >= 0xdc00 && second <= 0xdfff)
          return 0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00);
      }
      this.i = save;
    }
    if (first >= 0xd800 && first <= 0xdfff) throw new Unsupported("a lone surrogate escape");
    return first;
  }

  private propertyBody(): string {
    this.i++; // {
    let body = "";
    while (this.peek() !== "}") body += this.take();
    this.i++;
    return body;
  }

  private escapeOutside(): string {
    const c = this.take();
    switch (c) {
      case "d":
      case "D":
      case "w":
      case "W":
      case "b":
      case "B":
        return `\\${c}`;
      case "s":
        return `[${SPACE_ITEMS}]`;
      case "S":
        return `[${NON_SPACE_ITEMS}]`;
      case "p":
      case "P":
        return property(this.propertyBody(), c === "P").atom;
      case "k":
        throw new Unsupported("a backreference \\k<…>");
      default:
        if (/[1-9]/.test(c)) throw new Unsupported(`a backreference \\${c}`);
    }
    const cp = this.characterEscape(c, false);
    if (cp === null) throw new Unsupported(`the escape \\${c}`);
    return hex(cp);
  }

  /** One class atom: a single code point, or class items (a set such as `\d`). */
  private classAtom(): { cp: number } | { items: string } | { atom: string } {
    const c = this.take();
    if (c !== "\\") return { cp: c.codePointAt(0) ?? 0 };
    const e = this.take();
    switch (e) {
      case "d":
      case "D":
      case "w":
      case "W":
        return { items: `\\${e}` };
      case "s":
        return { items: SPACE_ITEMS };
      case "S":
        return { items: NON_SPACE_ITEMS };
      case "p":
      case "P": {
        const p = property(this.propertyBody(), e === "P");
        return p.items === null ? { atom: p.atom } : { items: p.items };
      }
    }
    const cp = this.characterEscape(e, true);
    if (cp === null) throw new Unsupported(`the escape \\${e}`);
    return { cp };
  }

  private characterClass(): string {
    const negated = this.peek() === "^";
    if (negated) this.i++;
    let items = "";
    while (this.i < this.cps.length && this.peek() !== "]") {
      const first = this.classAtom();
      if ("cp" in first && this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== "") {
        this.i++;
        const last = this.classAtom();
        if (!("cp" in last)) throw new Unsupported("a class range with a set end");
        items += rangeText([first.cp, last.cp]);
      } else if ("cp" in first) {
        items += hex(first.cp);
      } else if ("items" in first) {
        items += first.items;
      } // else \P{Any}: no code point
    }
    this.i++; // ]
    if (items === "") return negated ? `[${ANY_ITEMS}]` : `[^${ANY_ITEMS}]`;
    return `[${negated ? "^" : ""}${items}]`;
  }
}
