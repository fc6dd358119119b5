// Did-you-mean (docs/reference/language.md §9.1): the candidate with the smallest case-insensitive Levenshtein
// distance, if it is at most max(1, floor(len(name) / 3)); ties go to the earlier candidate.

function levenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
    }
    prev = cur;
  }
  return prev[y.length] as number;
}

export interface Suggestion {
  readonly candidate: string;
  /** True when no other candidate is within the threshold (a fix may rename to it). */
  readonly unique: boolean;
}

export function suggest(name: string, candidates: Iterable<string>): Suggestion | null {
  const limit = Math.max(1, Math.floor([...name].length / 3));
  const lower = name.toLowerCase();
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  let within = 0;
  const seen = new Set<string>();
  for (const c of candidates) {
    if (seen.has(c) || c === name) continue;
    seen.add(c);
    const d = levenshtein(lower, c.toLowerCase());
    if (d > limit) continue;
    within++;
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best === null ? null : { candidate: best, unique: within === 1 };
}
