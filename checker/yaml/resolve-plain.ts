// Implicit typing of plain scalars, exactly PyYAML's YAML 1.1 resolver table (docs/reference/language.md §1.1)
// followed by PyYAML's constructors. The resolvers are tried in PyYAML's order for the scalar's
// first character: bool, float, int, merge, null, timestamp, value.
import { normInt, PyFloat } from "../../stdlib/values/value";
import type { YamlScalar } from "./nodes";
import { pyFloat, pyInt } from "./python-numbers";
import { constructTimestamp, TIMESTAMP_PATTERN } from "./timestamp";

export type PlainResolution =
  | { readonly kind: "value"; readonly value: YamlScalar }
  /** `<<`: a merge key (an error anywhere but as a mapping key). */
  | { readonly kind: "merge" }
  /** `=`: the YAML 1.1 value key (a string as a mapping key, an error elsewhere). */
  | { readonly kind: "value-key" }
  | { readonly kind: "error"; readonly description: string };

const BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const FLOAT =
  /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const INT =
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const NULL = /^(?:~|null|Null|NULL|)$/;

const TRUE_WORDS = new Set(["yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"]);

const value = (v: YamlScalar): PlainResolution => ({ kind: "value", value: v });

/** Short decimal ints, the most common typed scalar: a fast path with the same result. */
const SMALL_INT = /^[-+]?[1-9][0-9]{0,14}$/;

export function resolvePlain(text: string): PlainResolution {
  if (SMALL_INT.test(text)) return value(Number(text));
  const c = text.charAt(0);
  if ("yYnNtTfFoO".includes(c) && c !== "" && BOOL.test(text)) return value(TRUE_WORDS.has(text));
  if (c !== "" && "-+0123456789.".includes(c)) {
    if (FLOAT.test(text)) return constructFloat(text);
    if (c !== "." && INT.test(text)) return constructInt(text);
  }
  if (text === "<<") return { kind: "merge" };
  if ((c === "" || c === "~" || c === "n" || c === "N") && NULL.test(text)) return value(null);
  if (c >= "0" && c <= "9" && c !== "" && TIMESTAMP_PATTERN.test(text)) {
    const t = constructTimestamp(text);
    return t.ok ? value(t.value) : { kind: "error", description: t.description };
  }
  if (text === "=") return { kind: "value-key" };
  return value(text);
}

/** PyYAML's construct_yaml_int (also used for `!!int`). */
export function constructInt(text: string): PlainResolution {
  let s = text.replace(/_/g, "");
  const fail: PlainResolution = { kind: "error", description: `cannot load '${text}' as an integer` };
  if (s === "") return fail;
  const negative = s.startsWith("-");
  if (s.startsWith("-") || s.startsWith("+")) s = s.slice(1);
  if (s === "") return fail;
  let n: bigint | null;
  if (s === "0") n = 0n;
  else if (s.startsWith("0b")) n = pyInt(s.slice(2), 2);
  else if (s.startsWith("0x")) n = pyInt(s.slice(2), 16);
  else if (s.startsWith("0")) n = pyInt(s, 8);
  else if (s.includes(":")) n = base60(s.split(":").map((p) => pyInt(p, 10)));
  else n = pyInt(s, 10);
  if (n === null) return fail;
  return value(normInt(negative ? -n : n));
}

function base60(digits: readonly (bigint | null)[]): bigint | null {
  let n = 0n;
  for (const d of digits) {
    if (d === null) return null;
    n = n * 60n + d;
  }
  return n;
}

/** PyYAML's construct_yaml_float (also used for `!!float`). */
export function constructFloat(text: string): PlainResolution {
  let s = text.replace(/_/g, "").toLowerCase();
  const fail: PlainResolution = { kind: "error", description: `cannot load '${text}' as a float` };
  if (s === "") return fail;
  const sign = s.startsWith("-") ? -1 : 1;
  if (s.startsWith("-") || s.startsWith("+")) s = s.slice(1);
  if (s === ".inf") return value(new PyFloat(sign * Number.POSITIVE_INFINITY));
  if (s === ".nan") return value(new PyFloat(Number.NaN));
  if (s.includes(":")) {
    // Same order of float operations as PyYAML: the last part first, times 60 per step.
    const parts = s.split(":").map(pyFloat).reverse();
    let total = 0;
    let base = 1;
    for (const p of parts) {
      if (p === null) return fail;
      total += p * base;
      base *= 60;
    }
    return value(new PyFloat(sign * total));
  }
  const x = pyFloat(s);
  return x === null ? fail : value(new PyFloat(sign * x));
}
