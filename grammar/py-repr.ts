// Python's repr() of str and float, as needed by the grammar layer (diagnostic details such as
// `unexpected string 'abc'`, and the printer). Kept local so that grammar/ does not depend on the
// in-progress value layer; stdlib/values/repr.ts implements the same rules for run-time values.

// Code points Python's str.isprintable() rejects: categories Cc, Cf, Cs, Co, Cn, Zl, Zp, Zs.
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, "0");
}

function escapeCodePoint(ch: string, quote: string): string {
  switch (ch) {
    case "\\":
      return "\\\\";
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
  }
  if (ch === quote) return `\\${quote}`;
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x7f) return cp < 0x20 ? `\\x${hex(cp, 2)}` : ch;
  if (ch !== " " && NON_PRINTABLE.test(ch)) {
    if (cp <= 0xff) return `\\x${hex(cp, 2)}`;
    if (cp <= 0xffff) return `\\u${hex(cp, 4)}`;
    return `\\U${hex(cp, 8)}`;
  }
  return ch;
}

/** Python `repr(s)` for a str. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  // Fast path for the common all-printable-ASCII case.
  if (/^[\x20-\x7e]*$/.test(s) && !s.includes("\\") && !s.includes(quote)) return quote + s + quote;
  for (const ch of s) out += escapeCodePoint(ch, quote);
  return out + quote;
}

/** Python `repr(x)` for a float: shortest round-trip digits, Python's choice of notation. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (x === Number.POSITIVE_INFINITY) return "inf";
  if (x === Number.NEGATIVE_INFINITY) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  // toExponential() without an argument gives the shortest digits that round-trip.
  const [mantissa = "", expText = "0"] = x.toExponential().split("e");
  const exp = Number(expText);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  const sign = negative ? "-" : "";
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
    if (digits.length <= exp + 1) return `${sign}${digits}${"0".repeat(exp + 1 - digits.length)}.0`;
    return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  }
  const frac = digits.length > 1 ? `.${digits.slice(1)}` : "";
  const expSign = exp < 0 ? "-" : "+";
  return `${sign}${digits[0]}${frac}e${expSign}${String(Math.abs(exp)).padStart(2, "0")}`;
}
