// A small imperative view of fast-check's `gen()`: the generators below make many dependent
// choices (scopes, depths), which read more clearly as code than as combinators. Every choice is
// drawn through fast-check, so a case is reproducible from the fast-check seed.
import fc from "fast-check";

export interface Rand {
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(xs: readonly T[]): T;
  /** True with probability `percent` / 100. */
  chance(percent: number): boolean;
  /** Picks by weight: `[[weight, value], …]`. */
  weighted<T>(entries: readonly (readonly [number, T])[]): T;
}

export function randFrom(g: fc.GeneratorValue): Rand {
  const int = (min: number, max: number): number => g(fc.integer, { min, max });
  return {
    int,
    pick<T>(xs: readonly T[]): T {
      const x = xs[int(0, xs.length - 1)];
      if (x === undefined && xs.length === 0) throw new Error("pick from an empty list");
      return x as T;
    },
    chance: (percent) => int(0, 99) < percent,
    weighted<T>(entries: readonly (readonly [number, T])[]): T {
      const total = entries.reduce((s, [w]) => s + w, 0);
      let r = int(0, total - 1);
      for (const [w, v] of entries) {
        if (r < w) return v;
        r -= w;
      }
      throw new Error("weighted: no entries");
    },
  };
}
