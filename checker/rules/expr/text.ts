// Phrases several expression rules share in their messages.

/** `<kind> expression` or, with no kind, `expression` (capitalised at the start of a message). */
export function kindPrefix(kind: string | undefined, capital: boolean): string {
  if (kind !== undefined) return `${kind} expression`;
  return capital ? "Expression" : "expression";
}

export const ALWAYS_FAILS = " (this always fails at run time)";
export const FAILS_FROM = {
  1: " (this fails at run time whenever the iterable is not empty)",
  2: " (this fails at run time whenever the iterable has two or more elements)",
} as const;
