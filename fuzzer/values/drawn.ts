// The solver's drawn candidates, their Python value made on first use: most of a step's 300
// candidates are never read by an expression on a given spec (the scan stops at the first that
// passes), and a candidate is kept or dropped on its plain JSON where plain-conforms.ts can tell.
import { fromJsonValue, type PyValue } from "../../stdlib/index";

export class DrawnCandidate {
  private converted: { readonly v: PyValue } | undefined;
  /** The solver's memo of the ensures' context-free outcomes (solver.ts). */
  fixedOutcomes?: readonly (boolean | string | undefined)[];

  constructor(
    readonly plain: unknown,
    value?: PyValue,
  ) {
    this.converted = value === undefined ? undefined : { v: value };
  }

  /** `fromJsonValue(plain)`, made once: the same value at every read, as an eager one would be. */
  get value(): PyValue {
    this.converted ??= { v: fromJsonValue(this.plain) };
    return this.converted.v;
  }
}

/**
 * The drawn results that conform, in draw order: those `surely` accepts on their plain JSON, the
 * others when `conforms` (the interpreter's checks) accepts their converted value.
 */
export function drawnCandidates(
  plains: readonly unknown[],
  surely: (plain: unknown) => true | undefined,
  conforms: (value: PyValue) => boolean,
): DrawnCandidate[] {
  const out: DrawnCandidate[] = [];
  for (const plain of plains) {
    if (surely(plain) === true) {
      out.push(new DrawnCandidate(plain));
      continue;
    }
    const value = fromJsonValue(plain);
    if (conforms(value)) out.push(new DrawnCandidate(plain, value));
  }
  return out;
}
