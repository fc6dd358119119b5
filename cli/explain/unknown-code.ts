// What `stratumc explain` says about a code it does not know: a close code (a typo of a whole
// code), else the codes that hold every word given (`explain unreachable`), and always the way to
// see them all, so that a guess never ends in a dead end.

/** At most this many codes are named for the words given; more would be `--list` itself. */
const MAX_NAMED = 5;

/**
 * The usage message for `given`, an unknown code. `close` is a whole code within a typo of it (or
 * null); `codes` every code; `program` the command's name.
 */
export function unknownCodeMessage(
  given: string,
  close: string | null,
  codes: readonly string[],
  program: string,
): string {
  const list = `\`${program} explain --list\` lists every code`;
  const unknown = `unknown code '${given}'`;
  if (close !== null) return `${unknown}; did you mean '${close}'? (${list})`;
  const holding = codesWithWords(given, codes);
  if (holding.length === 1) return `${unknown}; did you mean '${holding[0]}'? (${list})`;
  if (holding.length > 1 && holding.length <= MAX_NAMED)
    return `${unknown}; codes with those words: ${holding.join(", ")} (${list})`;
  if (holding.length > MAX_NAMED) return `${unknown}; ${holding.length} codes hold those words (${list})`;
  return `${unknown}; ${list}`;
}

/** The codes that hold every word of `given` (words split at `-`, `_` and spaces; any case). */
function codesWithWords(given: string, codes: readonly string[]): string[] {
  const words = given
    .toUpperCase()
    .split(/[-_\s]+/)
    .filter((w) => w !== "");
  if (words.length === 0) return [];
  return codes.filter((code) => {
    const parts = code.split("-");
    return words.every((w) => parts.includes(w));
  });
}
