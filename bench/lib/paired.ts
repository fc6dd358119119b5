// Paired in-process timing over a corpus: in every round each text is run through both functions
// back to back (alternating which goes first), so both sides see the same heap, JIT and machine
// state. Per text: the median over rounds; per side: the median over rounds of the round total.
import { median } from "./stats";

export interface PairedResult {
  /** Per text, median nanoseconds of one call. */
  readonly oursNs: number[];
  readonly baseNs: number[];
  /** Median over rounds of the time to run the whole corpus once, in milliseconds. */
  readonly oursTotalMs: number;
  readonly baseTotalMs: number;
  readonly rounds: number;
}

let sink: unknown;
/**
 * Keeps the results reachable so the calls cannot be optimised away: exported (and read by nobody)
 * so the stores into `sink` stay observable.
 * @public
 */
export function pairedSink(): unknown {
  return sink;
}

function time(fn: (text: string) => unknown, text: string): number {
  const start = process.hrtime.bigint();
  sink = fn(text);
  return Number(process.hrtime.bigint() - start);
}

export function measurePaired(
  texts: readonly string[],
  ours: (text: string) => unknown,
  base: (text: string) => unknown,
  rounds: number,
  warmupRounds = 2,
): PairedResult {
  const oursSamples: number[][] = texts.map(() => []);
  const baseSamples: number[][] = texts.map(() => []);
  const oursTotals: number[] = [];
  const baseTotals: number[] = [];
  for (let r = -warmupRounds; r < rounds; r++) {
    let oursTotal = 0;
    let baseTotal = 0;
    texts.forEach((text, i) => {
      let o: number;
      let b: number;
      if ((r + i) % 2 === 0) {
        o = time(ours, text);
        b = time(base, text);
      } else {
        b = time(base, text);
        o = time(ours, text);
      }
      oursTotal += o;
      baseTotal += b;
      if (r >= 0) {
        oursSamples[i]!.push(o);
        baseSamples[i]!.push(b);
      }
    });
    if (r >= 0) {
      oursTotals.push(oursTotal / 1e6);
      baseTotals.push(baseTotal / 1e6);
    }
  }
  return {
    oursNs: oursSamples.map(median),
    baseNs: baseSamples.map(median),
    oursTotalMs: median(oursTotals),
    baseTotalMs: median(baseTotals),
    rounds,
  };
}

/** Median over texts of (ours / base) per text. */
export function medianRatio(ours: readonly number[], base: readonly number[]): number {
  return median(ours.map((o, i) => o / base[i]!));
}
