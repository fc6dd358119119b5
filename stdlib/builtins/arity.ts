// Call-shape checking for builtins and methods (docs/reference/language.md §10.13, DIV-ARITY-MESSAGES): one
// message template instead of CPython's varied argument-count texts.

export interface ParamSpec {
  /** Names of the positional parameters, in order. */
  readonly positional: readonly string[];
  /** How many leading positional parameters are required. */
  readonly required: number;
  /** Parameters that may only be given by keyword (`default` of min/max, `reverse` of sorted). */
  readonly keywordOnly?: readonly string[];
  /** Positional parameters that may also be given by keyword (`start` of sum, …). */
  readonly positionalKeywords?: readonly string[];
  /** Any number of positional arguments (min/max): `positional` then lists only the first. */
  readonly varargs?: boolean;
}

function plural(n: number): string {
  return n === 1 ? "1 argument" : `${n} arguments`;
}

/** The `<spec>` part of `<name>() takes <spec> (<n> given)`. */
export function takesText(spec: ParamSpec): string {
  const max = spec.positional.length;
  if (spec.varargs) return `at least ${plural(spec.required)}`;
  if (max === 0) return "no arguments";
  if (spec.required === max) return `exactly ${plural(max)}`;
  return `from ${spec.required} to ${max} arguments`;
}

/** Whether a required parameter is given neither positionally nor (where allowed) by keyword. */
function missingRequired(spec: ParamSpec, nPositional: number, keywordNames: readonly string[]): boolean {
  for (let i = nPositional; i < spec.required; i++) {
    const name = spec.positional[i] as string;
    if (!(spec.positionalKeywords?.includes(name) && keywordNames.includes(name))) return true;
  }
  return false;
}

/**
 * The docs/reference/language.md §10.13 error message for a call of `displayName` (`len`, `str.lower`) with `nPositional`
 * positional arguments and the given keyword names, or null when the call shape is acceptable.
 * `<n> given` counts positional arguments plus keywords naming positional parameters. A keyword
 * that repeats a positionally given parameter yields `<name>() got multiple values for argument
 * '<k>'` (CPython's wording for functions with named parameters).
 */
export function arityError(
  displayName: string,
  spec: ParamSpec,
  nPositional: number,
  keywordNames: readonly string[],
): string | null {
  let positionalByKeyword = 0;
  for (const k of keywordNames) {
    if (spec.keywordOnly?.includes(k)) continue;
    if (spec.positionalKeywords?.includes(k)) {
      positionalByKeyword++;
      continue;
    }
    return `${displayName}() got an unexpected keyword argument '${k}'`;
  }
  const given = nPositional + positionalByKeyword;
  const tooMany = !spec.varargs && given > spec.positional.length;
  if (tooMany || missingRequired(spec, nPositional, keywordNames)) {
    return `${displayName}() takes ${takesText(spec)} (${given} given)`;
  }
  for (const k of keywordNames) {
    const index = spec.positional.indexOf(k);
    if (index >= 0 && index < nPositional) return `${displayName}() got multiple values for argument '${k}'`;
  }
  return null;
}

/**
 * Places the arguments of a call that passed `arityError` into one slot per parameter: the
 * positional parameters in order, then the keyword-only ones. Absent parameters are undefined.
 * Varargs calls keep all positional arguments in front (slots then follow them).
 */
export function bindArguments<T>(
  spec: ParamSpec,
  args: readonly T[],
  kwargs: ReadonlyMap<string, T> | null,
): (T | undefined)[] {
  const names = [...spec.positional, ...(spec.keywordOnly ?? [])];
  const slots: (T | undefined)[] = names.map((_, i) => (i < spec.positional.length ? args[i] : undefined));
  if (kwargs) {
    for (const [k, v] of kwargs) {
      const index = names.indexOf(k);
      if (index >= 0) slots[index] = v;
    }
  }
  return slots;
}
