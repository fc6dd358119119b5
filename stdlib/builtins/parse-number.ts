// int(str) and float(str) parsing with CPython 3.11's exact rules (docs/reference/language.md §10.9).

import { type PyError, valueError } from "../values/errors";
import { strRepr } from "../values/repr";
import { toCodePoints } from "../values/strings";
import { normInt, type PyInt } from "../values/value";
import { decimalValue, isDecimalChar, isSpaceCp } from "./unicode";

/** CPython's default limit on decimal digits converted by int() (sys.get_int_max_str_digits()). */
const INT_MAX_STR_DIGITS = 4300;

/**
 * CPython first maps non-ASCII whitespace to ' ' and non-ASCII decimal digits to ASCII digits,
 * every other non-ASCII code point to '?' (which then fails to parse).
 */
function toAsciiNumberText(s: string): string {
  let out = "";
  for (const ch of toCodePoints(s)) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 128) out += ch;
    else if (isSpaceCp(cp)) out += " ";
    else if (isDecimalChar(ch)) out += String(decimalValue(cp));
    else out += "?";
  }
  return out;
}

/** C isspace() on ASCII: the only whitespace int()/float() skip after the mapping above. */
function isAsciiSpace(c: string | undefined): boolean {
  return c === " " || c === "\t" || c === "\n" || c === "\v" || c === "\f" || c === "\r";
}

function isAsciiDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

function intLiteralError(original: string): PyError {
  // CPython formats the repr with %.200R: at most 200 characters of it.
  const shown = toCodePoints(strRepr(original)).slice(0, 200).join("");
  return valueError(`invalid literal for int() with base 10: ${shown}`);
}

/** int(s) for a str argument. */
export function parseIntString(original: string): PyInt {
  const s = toAsciiNumberText(original);
  let i = 0;
  while (isAsciiSpace(s[i])) i++;
  let negative = false;
  if (s[i] === "+" || s[i] === "-") {
    negative = s[i] === "-";
    i++;
  }
  if (!isAsciiDigit(s[i])) throw intLiteralError(original);
  let digits = "";
  let previous = "";
  while (isAsciiDigit(s[i]) || s[i] === "_") {
    const c = s[i] as string;
    if (c === "_") {
      if (previous === "_") throw intLiteralError(original);
    } else {
      digits += c;
    }
    previous = c;
    i++;
  }
  if (previous === "_") throw intLiteralError(original);
  if (digits.length > INT_MAX_STR_DIGITS) {
    throw valueError(
      `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits.length} digits; use sys.set_int_max_str_digits() to increase the limit`,
    );
  }
  while (isAsciiSpace(s[i])) i++;
  if (i !== s.length) throw intLiteralError(original);
  const value = BigInt(digits);
  return normInt(negative ? -value : value);
}

/** digitpart = digit (["_"] digit)*, as a regular expression source. */
const DIGITPART = "[0-9](?:_?[0-9])*";
const FLOAT_SYNTAX = new RegExp(
  `^[+-]?(?:(?:${DIGITPART}(?:\\.(?:${DIGITPART})?)?|\\.${DIGITPART})(?:[eE][+-]?${DIGITPART})?|inf|infinity|nan)$`,
  "i",
);

/** float(s) for a str argument: the double nearest to the decimal value (or inf/nan). */
export function parseFloatString(original: string): number {
  const s = toAsciiNumberText(original);
  let start = 0;
  let end = s.length;
  while (start < end && isAsciiSpace(s[start])) start++;
  while (end > start && isAsciiSpace(s[end - 1])) end--;
  const text = s.slice(start, end);
  if (!FLOAT_SYNTAX.test(text)) {
    throw valueError(`could not convert string to float: ${strRepr(original)}`);
  }
  const negative = text.startsWith("-");
  const body = text.replace(/^[+-]/, "").toLowerCase();
  if (body === "inf" || body === "infinity") return negative ? -Infinity : Infinity;
  if (body === "nan") return Number.NaN;
  // ECMAScript's string-to-number conversion is correctly rounded, like CPython's dtoa.
  return Number(text.replaceAll("_", ""));
}
