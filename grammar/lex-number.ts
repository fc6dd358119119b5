// Number literals (docs/reference/language.md §10.2): scanning, validation and exact values.
import { normInt, PyFloat, type PyInt } from "../stdlib/values/value";
import type { LexError } from "./lex-payload";

export interface NumberPayload {
  readonly value: PyInt | PyFloat;
  readonly error: LexError | null;
}

export interface ScannedNumber {
  readonly end: number;
  readonly payload: NumberPayload;
}

type DigitTest = (code: number) => boolean;

const isDec: DigitTest = (c) => c >= 48 && c <= 57;
const isHex: DigitTest = (c) => isDec(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
const isOct: DigitTest = (c) => c >= 48 && c <= 55;
const isBin: DigitTest = (c) => c === 48 || c === 49;
const UNDERSCORE = 95;

/** A character that may not directly follow a number: a letter, digit, `_` or `.`. */
function isContinuation(code: number): boolean {
  return isDec(code) || code === UNDERSCORE || code === 46 || ((code | 32) >= 97 && (code | 32) <= 122);
}

/** End of `digit (_? digit)*` starting at i (i itself when there is no digit at i). */
function digitsEnd(text: string, i: number, isDigit: DigitTest): number {
  if (!isDigit(text.charCodeAt(i))) return i;
  i++;
  for (;;) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) i++;
    else if (c === UNDERSCORE && isDigit(text.charCodeAt(i + 1))) i += 2;
    else return i;
  }
}

function invalid(text: string, start: number, end: number): ScannedNumber {
  while (end < text.length && isContinuation(text.charCodeAt(end))) end++;
  const error = { detail: `invalid number literal '${text.slice(start, end)}'`, start, end };
  return { end, payload: { value: 0, error } };
}

function radixDigitTest(prefix: number): { test: DigitTest; base: string } | null {
  switch (prefix | 32) {
    case 120:
      return { test: isHex, base: "0x" };
    case 111:
      return { test: isOct, base: "0o" };
    case 98:
      return { test: isBin, base: "0b" };
  }
  return null;
}

function scanRadix(text: string, start: number, radix: { test: DigitTest; base: string }): ScannedNumber {
  let j = start + 2;
  if (text.charCodeAt(j) === UNDERSCORE) j++;
  const end = digitsEnd(text, j, radix.test);
  if (end === j || isContinuation(text.charCodeAt(end))) return invalid(text, start, Math.max(end, j));
  const digits = text.slice(start + 2, end).replaceAll("_", "");
  return { end, payload: { value: normInt(BigInt(radix.base + digits)), error: null } };
}

function decimalValue(digits: string): PyInt {
  return digits.length <= 15 ? Number(digits) : normInt(BigInt(digits));
}

/**
 * Scans a number literal at `start` (a digit, or `.` followed by a digit). Returns null when there
 * is no number there. Invalid literals are returned with an error so that lexing continues.
 */
export function scanNumber(text: string, start: number): ScannedNumber | null {
  const first = text.charCodeAt(start);
  if (first === 46) {
    if (!isDec(text.charCodeAt(start + 1))) return null;
  } else if (!isDec(first)) {
    return null;
  }
  if (first === 48) {
    const radix = radixDigitTest(text.charCodeAt(start + 1));
    if (radix !== null) return scanRadix(text, start, radix);
  }
  const intEnd = digitsEnd(text, start, isDec);
  let end = intEnd;
  let isFloat = false;
  if (text.charCodeAt(end) === 46) {
    end = digitsEnd(text, end + 1, isDec);
    isFloat = true;
  }
  const e = text.charCodeAt(end);
  if (e === 101 || e === 69) {
    let j = end + 1;
    const sign = text.charCodeAt(j);
    if (sign === 43 || sign === 45) j++;
    const expEnd = digitsEnd(text, j, isDec);
    if (expEnd > j) {
      end = expEnd;
      isFloat = true;
    }
  }
  const next = text.charCodeAt(end);
  if ((next === 106 || next === 74) && !isContinuation(text.charCodeAt(end + 1))) {
    const error = { detail: "complex numbers are not supported", start, end: end + 1 };
    return { end: end + 1, payload: { value: 0, error } };
  }
  if (isContinuation(next)) return invalid(text, start, end);
  let literal = text.slice(start, end);
  if (literal.includes("_")) literal = literal.replaceAll("_", "");
  if (isFloat) return { end, payload: { value: new PyFloat(Number(literal)), error: null } };
  if (literal.length > 1 && literal.charCodeAt(0) === 48 && /[1-9]/.test(literal)) {
    return invalid(text, start, end);
  }
  return { end, payload: { value: decimalValue(literal), error: null } };
}
