// Where a run's choices come from. The driver asks at every decision point (which result to report,
// how to resolve a gate, whether to run an iteration loop, …) and for generated values; a decider
// answers. Random exploration answers from a fast-check "scenario" (a tape of numbers plus value
// pools), so fast-check can shrink a run to the shortest tape and simplest values; exhaustive
// exploration answers from an enumerated prefix of option indices.

/** One option at a decision point: a name, its weight in random runs, and whether exhaustive mode enumerates it. */
export interface Option<T extends string = string> {
  readonly name: T;
  readonly weight: number;
  readonly exhaustive: boolean;
}

export interface Decider {
  /** The index of the chosen option among `options` (some option with weight > 0 or exhaustive). */
  choose<T extends string>(options: readonly Option<T>[]): T;
  /** The plan inputs of the root flow. */
  inputs(): Record<string, unknown>;
  /** The `n`-th generated value of a pool (a step's results), or undefined when the decider has no pools. */
  value(pool: string, n: number): unknown;
  /**
   * A field to set in a pool's "do it right" result (a property probe: property-probes.ts), or
   * undefined.
   */
  aim?(pool: string): { readonly path: readonly string[]; readonly value: unknown } | undefined;
  /**
   * Whether a run ends where it comes back to a state it was in (`revisit`, observer.ts): exhaustive
   * mode explored every choice from there already; random runs go on.
   */
  readonly endsAtRevisit: boolean;
}

/** A random run as fast-check generates it. */
export interface Scenario {
  readonly inputs: Record<string, unknown>;
  /** Choices, each in 0..TAPE_MAX; past its end every choice is 0 (the first option). */
  readonly tape: readonly number[];
  /** Generated values by pool key (at least one value each). */
  readonly pools: Readonly<Record<string, readonly unknown[]>>;
}

export const TAPE_MAX = 999;

export class ScenarioDecider implements Decider {
  private at = 0;
  readonly endsAtRevisit = false;

  constructor(private readonly scenario: Scenario) {}

  // Called at every decision of every run: the live options are walked in place, not copied.
  choose<T extends string>(options: readonly Option<T>[]): T {
    const anyLive = options.some((o) => o.weight > 0);
    let total = 0;
    for (const o of options) if (!anyLive || o.weight > 0) total += Math.max(o.weight, 1);
    const t = this.scenario.tape[this.at++] ?? 0;
    let target = (t / (TAPE_MAX + 1)) * total;
    let last: Option<T> | undefined;
    for (const o of options) {
      if (anyLive && o.weight <= 0) continue;
      last = o;
      target -= Math.max(o.weight, 1);
      if (target < 0) return o.name;
    }
    return last!.name;
  }

  inputs(): Record<string, unknown> {
    return this.scenario.inputs;
  }

  value(pool: string, n: number): unknown {
    const values = this.scenario.pools[pool];
    return values === undefined || values.length === 0 ? undefined : values[n % values.length];
  }
}

/** Exhaustive mode: follows `prefix`, then always the first option, and records every arity met. */
export class TapeDecider implements Decider {
  private at = 0;
  readonly endsAtRevisit = true;
  /** The number of enumerated options at each decision point of this run. */
  readonly arities: number[] = [];
  /** The choices made (prefix, then zeros). */
  readonly choices: number[] = [];

  constructor(
    private readonly prefix: readonly number[],
    private readonly inputMenu: readonly Record<string, unknown>[],
  ) {}

  private next(arity: number): number {
    const i = this.at++;
    const c = i < this.prefix.length ? Math.min(this.prefix[i]!, arity - 1) : 0;
    this.arities.push(arity);
    this.choices.push(c);
    return c;
  }

  choose<T extends string>(options: readonly Option<T>[]): T {
    let arity = 0;
    for (const o of options) if (o.exhaustive) arity++;
    if (arity === 0) {
      this.next(1);
      return options[0]!.name;
    }
    let c = this.next(arity);
    for (const o of options) if (o.exhaustive && c-- === 0) return o.name;
    throw new Error("unreachable: the choice is below the arity");
  }

  inputs(): Record<string, unknown> {
    if (this.inputMenu.length <= 1) return this.inputMenu[0] ?? {};
    return this.inputMenu[this.next(this.inputMenu.length)]!;
  }

  value(): unknown {
    return undefined;
  }
}

/**
 * A property probe's run: the first exhaustive path (every choice the first enumerated option)
 * with `input`, and one field of one pool's "do it right" results set as `aimed` says.
 */
export class ProbeDecider extends TapeDecider {
  constructor(
    input: Record<string, unknown>,
    private readonly aimed: {
      readonly pool: string;
      readonly path: readonly string[];
      readonly value: unknown;
    } | null,
  ) {
    super([], [input]);
  }

  aim(pool: string): { readonly path: readonly string[]; readonly value: unknown } | undefined {
    return this.aimed !== null && this.aimed.pool === pool ? this.aimed : undefined;
  }
}
