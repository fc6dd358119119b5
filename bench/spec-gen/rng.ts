// A small deterministic pseudo-random generator (mulberry32): the corpus must be the same on every
// machine and in every run, so the benchmark compares like with like.

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [lo, hi] (both inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error("pick from an empty list");
    return xs[Math.floor(this.next() * xs.length)]!;
  }

  /** `k` distinct elements in their original order. */
  sample<T>(xs: readonly T[], k: number): T[] {
    const chosen = new Set<number>();
    const n = Math.min(k, xs.length);
    while (chosen.size < n) chosen.add(Math.floor(this.next() * xs.length));
    return [...chosen].sort((a, b) => a - b).map((i) => xs[i]!);
  }
}
