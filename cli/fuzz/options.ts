// The option values of `stratumc fuzz`: whole numbers and durations (`500ms`, `3s`, `1.5m`, `1h`).
// A bad value is a usage error naming the option.
import { UsageError } from "../exit-codes";

/** A whole number >= min (and a safe integer). */
export function parseWholeNumber(option: string, text: string, min: number): number {
  const n = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`${option}: expected a whole number >= ${min}, got '${text}'`);
  }
  return n;
}

/** fast-check takes a 32-bit seed: anything wider would be silently truncated. */
export function parseSeed(text: string): number {
  const n = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(n) || n < -(2 ** 31) || n > 2 ** 31 - 1) {
    throw new UsageError(`--seed: expected a whole number from -2147483648 to 2147483647, got '${text}'`);
  }
  return n;
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Milliseconds of a duration with its unit: `500ms`, `3s`, `1.5m`, `1h`. */
export function parseDuration(option: string, text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text.trim());
  const ms = m === null ? Number.NaN : Math.round(Number(m[1]) * (UNIT_MS[m[2] ?? ""] ?? Number.NaN));
  if (!Number.isSafeInteger(ms) || ms <= 0) {
    throw new UsageError(`${option}: expected a duration such as 500ms, 3s or 2m, got '${text}'`);
  }
  return ms;
}
