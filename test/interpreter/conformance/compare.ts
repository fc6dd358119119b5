// The comparison of test/conformance/recorded/README.md §2.3: recorded keys must be present with equal values
// (extra keys allowed), arrays element by element, numbers numerically, and the `yaml` text of a
// compile_speckit result as the document it denotes. Returns the first difference with its path.
import { loadPlainYaml } from "./pyyaml-plain";

export interface Difference {
  /** `$` is the response itself: `$.trace[2].step_id`. */
  readonly path: string;
  readonly reason: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

export interface CompareOptions {
  /** Extra keys in `actual` are a difference too (used for parsed YAML documents). */
  readonly exact?: boolean;
  /** Strings under a `yaml` key are compared as parsed YAML (compile_speckit). */
  readonly yamlKeys?: boolean;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "bigint") return "number";
  return typeof v;
}

function keyPath(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function numbersEqual(a: number | bigint, b: number | bigint): boolean {
  if (typeof a === "bigint" || typeof b === "bigint") {
    const integral = (x: number | bigint) => typeof x === "bigint" || Number.isInteger(x);
    return integral(a) && integral(b) ? BigInt(a) === BigInt(b) : Number(a) === Number(b);
  }
  return a === b;
}

function compareYaml(expected: string, actual: string, path: string): Difference | null {
  const e = loadPlainYaml(expected);
  const a = loadPlainYaml(actual);
  if (!e.ok) return { path, reason: `recorded yaml does not parse: ${e.error}`, expected, actual };
  if (!a.ok) return { path, reason: `yaml does not parse: ${a.error}`, expected, actual };
  return firstDifference(e.value, a.value, { exact: true }, `${path}<yaml>`);
}

export function firstDifference(
  expected: unknown,
  actual: unknown,
  options: CompareOptions = {},
  path = "$",
): Difference | null {
  const differ = (reason: string): Difference => ({ path, reason, expected, actual });
  if (kindOf(expected) !== kindOf(actual)) {
    return differ(`expected ${kindOf(expected)}, got ${kindOf(actual)}`);
  }
  if (typeof expected === "number" || typeof expected === "bigint") {
    return numbersEqual(expected, actual as number | bigint) ? null : differ("numbers differ");
  }
  if (Array.isArray(expected)) {
    const list = actual as readonly unknown[];
    if (list.length !== expected.length) {
      return differ(`expected ${expected.length} elements, got ${list.length}`);
    }
    for (let i = 0; i < expected.length; i++) {
      const d = firstDifference(expected[i], list[i], options, `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (isRecord(expected)) {
    const object = actual as Record<string, unknown>;
    for (const [key, value] of Object.entries(expected)) {
      const at = keyPath(path, key);
      if (!Object.hasOwn(object, key)) {
        return { path: at, reason: "missing key", expected: value, actual: undefined };
      }
      const got = object[key];
      const d =
        options.yamlKeys && key === "yaml" && typeof value === "string" && typeof got === "string"
          ? compareYaml(value, got, at)
          : firstDifference(value, got, options, at);
      if (d) return d;
    }
    if (options.exact) {
      const extra = Object.keys(object).find((k) => !Object.hasOwn(expected, k));
      if (extra !== undefined) {
        return {
          path: keyPath(path, extra),
          reason: "unexpected key",
          expected: undefined,
          actual: object[extra],
        };
      }
    }
    return null;
  }
  return expected === actual ? null : differ("values differ");
}

function shortJson(v: unknown, max = 600): string {
  if (v === undefined) return "(absent)";
  const text = JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x));
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export function formatDifference(d: Difference): string {
  return `at ${d.path}: ${d.reason}\n    expected: ${shortJson(d.expected)}\n    actual:   ${shortJson(d.actual)}`;
}
