// Python's `shlex.split(s)` (POSIX mode, no comments), ported state for state: how the reference
// turns a `pre_merge_verify` command into the words of a program run without a shell. Quotes and
// backslashes group and escape as a POSIX shell does; nothing else is special (no variables, no
// globs, no redirections, no `;`, `|` or `&&`: they stay parts of words).

/** What `shlex.split` raises (ValueError) for an unclosed quote or a trailing backslash. */
export class ShlexError extends Error {
  override readonly name = "ShlexError";
}

const WHITESPACE = " \t\r\n";
const QUOTES = "'\"";
const ESCAPE = "\\";
/** Quotes inside which a backslash escapes (only the quote itself and the backslash). */
const ESCAPED_QUOTES = '"';

/** The words of `s`; throws ShlexError where Python raises ValueError. */
export function shlexSplit(s: string): string[] {
  // Python reads one code point at a time.
  const chars = [...s];
  let at = 0;
  let state: string | null = " ";
  const words: string[] = [];
  for (;;) {
    let token = "";
    let quoted = false;
    let escapedState = " ";
    for (;;) {
      const next = at < chars.length ? chars[at++]! : "";
      if (state === null) {
        token = "";
        break;
      }
      if (state === " ") {
        if (next === "") {
          state = null;
          break;
        }
        if (WHITESPACE.includes(next)) {
          if (token !== "" || quoted) break;
          continue;
        }
        if (next === ESCAPE) {
          escapedState = "a";
          state = next;
        } else if (QUOTES.includes(next)) {
          state = next;
        } else {
          token = next;
          state = "a";
        }
      } else if (QUOTES.includes(state)) {
        quoted = true;
        if (next === "") throw new ShlexError("No closing quotation");
        if (next === state) state = "a";
        else if (next === ESCAPE && ESCAPED_QUOTES.includes(state)) {
          escapedState = state;
          state = next;
        } else token += next;
      } else if (state === ESCAPE) {
        if (next === "") throw new ShlexError("No escaped character");
        // Within quotes only the quote itself or the backslash may be escaped.
        if (QUOTES.includes(escapedState) && next !== state && next !== escapedState) token += state;
        token += next;
        state = escapedState;
      } else {
        // In a word.
        if (next === "") {
          state = null;
          break;
        }
        if (WHITESPACE.includes(next)) {
          state = " ";
          if (token !== "" || quoted) break;
          continue;
        }
        if (QUOTES.includes(next)) state = next;
        else if (next === ESCAPE) {
          escapedState = "a";
          state = next;
        } else token += next;
      }
    }
    if (!quoted && token === "") return words;
    words.push(token);
  }
}
