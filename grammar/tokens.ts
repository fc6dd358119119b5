// Token types and the (single, lazily built) Chevrotain lexer of the expression language (docs/reference/language.md §10.2).

import { type CustomPatternMatcherReturn, createToken, type IToken, Lexer, type TokenType } from "chevrotain";
import { SKIP_GRAMMAR_VALIDATIONS } from "./build-flags";
import { scanNumber } from "./lex-number";
import { scanPath } from "./lex-path";
import { scanString } from "./lex-string";

type Scanner = (text: string, offset: number) => { end: number; payload: unknown } | null;

/** Adapts a hand-written scanner to a Chevrotain custom pattern with a payload. */
function custom(scan: Scanner): (text: string, offset: number) => CustomPatternMatcherReturn | null {
  return (text, offset) => {
    const found = scan(text, offset);
    if (found === null) return null;
    const match: CustomPatternMatcherReturn = [text.slice(offset, found.end)];
    match.payload = found.payload;
    return match;
  };
}

const NAME_PATTERN = /[A-Za-z_][A-Za-z0-9_]*/;

const WhiteSpace = createToken({
  name: "WhiteSpace",
  pattern: /[ \t\f\r\n]+/,
  group: Lexer.SKIPPED,
  line_breaks: true,
});
export const Comment = createToken({ name: "Comment", pattern: /#[^\r\n]*/, group: Lexer.SKIPPED });

export const StringLit = createToken({
  name: "StringLit",
  pattern: custom(scanString),
  start_chars_hint: ["'", '"', "r", "R", "u", "U", "f", "F", "b", "B"],
  line_breaks: true,
});
export const NumberLit = createToken({
  name: "NumberLit",
  pattern: custom(scanNumber),
  start_chars_hint: [".", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"],
  line_breaks: false,
});
export const DollarPath = createToken({
  name: "DollarPath",
  pattern: custom(scanPath),
  start_chars_hint: ["$"],
  line_breaks: false,
});
export const LoneDollar = createToken({ name: "LoneDollar", pattern: /\$/ });

export const Name = createToken({ name: "Name", pattern: NAME_PATTERN });

/** Python keywords that are reserved and rejected (docs/reference/language.md §9.5.5). */
export const ReservedKeyword = createToken({ name: "ReservedKeyword", pattern: Lexer.NA });
const RESERVED_WORDS = [
  "lambda",
  "yield",
  "await",
  "async",
  "def",
  "class",
  "import",
  "from",
  "as",
  "with",
  "return",
  "pass",
  "del",
  "global",
  "nonlocal",
  "assert",
  "raise",
  "try",
  "except",
  "finally",
  "while",
  "break",
  "continue",
  "elif",
] as const;

/**
 * Keywords are lexed as names and then retyped from this table (see `tokenize`): one regex per
 * word instead of one per keyword is markedly faster.
 */
const KEYWORDS = new Map<string, TokenType>();

function keyword(word: string, categories?: TokenType[]): TokenType {
  const type = createToken({ name: `Kw_${word}`, pattern: Lexer.NA, ...(categories ? { categories } : {}) });
  KEYWORDS.set(word, type);
  return type;
}

/** Any binary operator (levels 2–7 of docs/reference/language.md §10.4); the parser orders them by precedence. */
export const BinaryOperator = createToken({ name: "BinaryOperator", pattern: Lexer.NA });
/** `not`, `-`, `+`, `~` in front of an operand. */
export const PrefixOperator = createToken({ name: "PrefixOperator", pattern: Lexer.NA });
const binary = [BinaryOperator];

/** `not in` / `is not`: one token, whatever whitespace or comments separate the two words. */
function wordPair(first: string, second: string): Scanner {
  return (text, offset) => {
    if (!text.startsWith(first, offset)) return null;
    const gapStart = offset + first.length;
    let i = gapStart;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 12) i++;
      else if (c === 35) {
        while (i < text.length && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
      } else break;
    }
    if (i === gapStart || !text.startsWith(second, i)) return null;
    const end = i + second.length;
    return /[A-Za-z0-9_]/.test(text.charAt(end)) ? null : { end, payload: undefined };
  };
}

export const NotIn = createToken({
  name: "NotIn",
  pattern: custom(wordPair("not", "in")),
  start_chars_hint: ["n"],
  line_breaks: true,
  categories: binary,
});
export const IsNot = createToken({
  name: "IsNot",
  pattern: custom(wordPair("is", "not")),
  start_chars_hint: ["i"],
  line_breaks: true,
  categories: binary,
});
export const And = keyword("and", binary);
export const Or = keyword("or", binary);
export const Not = keyword("not", [PrefixOperator]);
export const In = keyword("in", binary);
export const Is = keyword("is", binary);
export const If = keyword("if");
export const Else = keyword("else");
export const For = keyword("for");
/** True/False/None and the aliases true/false/null. */
export const LiteralKeyword = createToken({ name: "LiteralKeyword", pattern: Lexer.NA });
const LITERAL_WORDS = ["True", "False", "None", "true", "false", "null"];
const literalKeywords = LITERAL_WORDS.map((w) => keyword(w, [LiteralKeyword]));
const reservedKeywords = RESERVED_WORDS.map((w) => keyword(w, [ReservedKeyword]));
const KEYWORD_TOKENS = [And, Or, Not, In, Is, If, Else, For, ...literalKeywords, ...reservedKeywords];

function punct(name: string, text: string, categories?: TokenType[]): TokenType {
  const pattern = new RegExp(text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
  return createToken({ name, pattern, label: `'${text}'`, ...(categories ? { categories } : {}) });
}

/** Python operators that are recognised only to be rejected (docs/reference/language.md §10.2). */
export const UnsupportedOperator = createToken({ name: "UnsupportedOperator", pattern: Lexer.NA });
const unsupportedBinary = [UnsupportedOperator, BinaryOperator];
export const Power = punct("Power", "**", unsupportedBinary);
const FloorDiv = punct("FloorDiv", "//", binary);
const ShiftLeft = punct("ShiftLeft", "<<", unsupportedBinary);
const ShiftRight = punct("ShiftRight", ">>", unsupportedBinary);
const LtGt = punct("LtGt", "<>", unsupportedBinary);
const Walrus = punct("Walrus", ":=", unsupportedBinary);
const EqEq = punct("EqEq", "==", binary);
const NotEq = punct("NotEq", "!=", binary);
const LtE = punct("LtE", "<=", binary);
const GtE = punct("GtE", ">=", binary);
const Lt = punct("Lt", "<", binary);
const Gt = punct("Gt", ">", binary);
const Plus = punct("Plus", "+", [BinaryOperator, PrefixOperator]);
const Minus = punct("Minus", "-", [BinaryOperator, PrefixOperator]);
export const Star = punct("Star", "*", binary);
const Slash = punct("Slash", "/", binary);
const Percent = punct("Percent", "%", binary);
const Pipe = punct("Pipe", "|", unsupportedBinary);
const Amp = punct("Amp", "&", unsupportedBinary);
const Caret = punct("Caret", "^", unsupportedBinary);
const Tilde = punct("Tilde", "~", [UnsupportedOperator, PrefixOperator]);
const At = punct("At", "@", unsupportedBinary);
export const LParen = punct("LParen", "(");
export const RParen = punct("RParen", ")");
export const LBracket = punct("LBracket", "[");
export const RBracket = punct("RBracket", "]");
export const LBrace = punct("LBrace", "{");
export const RBrace = punct("RBrace", "}");
export const Comma = punct("Comma", ",");
export const Colon = punct("Colon", ":");
export const Dot = punct("Dot", ".");
export const Assign = punct("Assign", "=");

/** Any other character (one code point): always a syntax error, reported by the parser. */
const Unknown = createToken({
  name: "Unknown",
  // A full range (not [\s\S]) so that Chevrotain's first-character optimisation covers it.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: every UTF-16 unit is meant
  pattern: /[\ud800-\udbff][\udc00-\udfff]|[\u0000-\uffff]/,
  line_breaks: true,
});

export const ALL_TOKENS: TokenType[] = [
  WhiteSpace,
  Comment,
  StringLit,
  DollarPath,
  LoneDollar,
  NumberLit,
  ReservedKeyword,
  LiteralKeyword,
  UnsupportedOperator,
  BinaryOperator,
  PrefixOperator,
  NotIn,
  IsNot,
  ...KEYWORD_TOKENS,
  Name,
  Power,
  FloorDiv,
  ShiftLeft,
  ShiftRight,
  LtGt,
  Walrus,
  EqEq,
  NotEq,
  LtE,
  GtE,
  Lt,
  Gt,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Pipe,
  Amp,
  Caret,
  Tilde,
  At,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Dot,
  Assign,
  Unknown,
];

let lexer: Lexer | null = null;

/** The one lexer instance, built on first use. */
function getLexer(): Lexer {
  lexer ??= new Lexer(ALL_TOKENS, {
    positionTracking: "onlyOffset",
    ensureOptimizations: !SKIP_GRAMMAR_VALIDATIONS,
    skipValidations: SKIP_GRAMMAR_VALIDATIONS,
  });
  return lexer;
}

/**
 * The tokens of `text` (whitespace and comments dropped). Never fails: any character that starts
 * no token becomes an Unknown token, and malformed literals carry their error in the payload.
 */
export function tokenize(text: string): IToken[] {
  const tokens = getLexer().tokenize(text).tokens;
  for (const tok of tokens) {
    // Keywords are 2 to 8 characters long.
    if (tok.tokenType === Name && tok.image.length <= 8) {
      const kw = KEYWORDS.get(tok.image);
      if (kw !== undefined) {
        tok.tokenType = kw;
        tok.tokenTypeIdx = kw.tokenTypeIdx!;
      }
    }
  }
  return tokens;
}
