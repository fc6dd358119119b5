// The value constraints of a scalar field (docs/reference/language.md §9.3): at most one of SCHEMA-TYPE,
// SCHEMA-ENUM, SCHEMA-MINIMUM, SCHEMA-MAXIMUM, SCHEMA-NON-EMPTY, SCHEMA-PATTERN per node, in that order.
import type { Version } from "../base/version";
import type { SpecNode } from "../yaml/nodes";
import { pythonRepr } from "../yaml/repr";
import { forVersion } from "./resolve-shape";
import { SCHEMA_ENUM } from "./rules/SCHEMA-ENUM";
import { SCHEMA_MAXIMUM } from "./rules/SCHEMA-MAXIMUM";
import { SCHEMA_MINIMUM } from "./rules/SCHEMA-MINIMUM";
import { SCHEMA_NON_EMPTY } from "./rules/SCHEMA-NON-EMPTY";
import { SCHEMA_PATTERN } from "./rules/SCHEMA-PATTERN";
import { SCHEMA_TYPE } from "./rules/SCHEMA-TYPE";
import { integralValue, isNumberValue, numberAbove, numberBelow } from "./scalars";
import type { ValueSpec } from "./spec-schema-types";

export type ValueRule =
  | typeof SCHEMA_TYPE
  | typeof SCHEMA_ENUM
  | typeof SCHEMA_MINIMUM
  | typeof SCHEMA_MAXIMUM
  | typeof SCHEMA_NON_EMPTY
  | typeof SCHEMA_PATTERN;

export interface ValueProblem {
  readonly rule: ValueRule;
  readonly message: string;
  readonly suggestion?: string;
}

/** The one value diagnostic of a scalar field, in the order TYPE, ENUM, MINIMUM, NON-EMPTY, PATTERN. */
export function scalarProblem(node: SpecNode, spec: ValueSpec, version: Version): ValueProblem | null {
  const v = node.kind === "scalar" ? node.value : undefined;
  const typeProblem = (types: readonly string[]): ValueProblem => ({
    rule: SCHEMA_TYPE,
    message: SCHEMA_TYPE.message(pythonRepr(node), types),
  });
  switch (spec.kind) {
    case "string":
      if (typeof v !== "string") return typeProblem(["string"]);
      if (spec.nonEmpty === true && v === "") {
        return { rule: SCHEMA_NON_EMPTY, message: SCHEMA_NON_EMPTY.message(pythonRepr(node)) };
      }
      if (spec.pattern !== undefined && !pythonSearch(spec.pattern, v)) {
        return { rule: SCHEMA_PATTERN, message: SCHEMA_PATTERN.message(pythonRepr(node), spec.pattern) };
      }
      return null;
    case "nullableString":
      return typeof v === "string" || v === null ? null : typeProblem(["string", "null"]);
    case "boolean":
      return typeof v === "boolean" ? null : typeProblem(["boolean"]);
    case "enum": {
      if (typeof v !== "string") return typeProblem(["string"]);
      const allowed = forVersion(spec.values, version);
      if (allowed.includes(v)) return null;
      return {
        rule: SCHEMA_ENUM,
        message: SCHEMA_ENUM.message(pythonRepr(node), allowed),
        suggestion: SCHEMA_ENUM.suggestion(allowed),
      };
    }
    case "nullableInteger": {
      if (v === null) return null;
      if (integralValue(v) === null) return typeProblem(["integer", "null"]);
      if (!numberBelow(v, spec.minimum)) return null;
      return { rule: SCHEMA_MINIMUM, message: SCHEMA_MINIMUM.message(pythonRepr(node), spec.minimum) };
    }
    case "enumOrInteger": {
      // The reference's `best_match` descends into the branch of the value's own kind.
      if (typeof v === "string") {
        if (spec.values.includes(v)) return null;
        return {
          rule: SCHEMA_ENUM,
          message: SCHEMA_ENUM.message(pythonRepr(node), spec.values),
          suggestion: SCHEMA_ENUM.suggestion(spec.values),
        };
      }
      if (typeof v === "boolean" || integralValue(v) === null) {
        return { rule: SCHEMA_TYPE, message: SCHEMA_TYPE.noAlternativeMessage(pythonRepr(node)) };
      }
      if (!numberBelow(v, spec.minimum)) return null;
      return { rule: SCHEMA_MINIMUM, message: SCHEMA_MINIMUM.message(pythonRepr(node), spec.minimum) };
    }
    case "stringOrSeqOf":
      // Only the string branch reaches here (a sequence is checked by the walk).
      return typeof v === "string" && (spec.item.kind !== "string" || spec.item.nonEmpty !== true || v !== "")
        ? null
        : { rule: SCHEMA_TYPE, message: SCHEMA_TYPE.noAlternativeMessage(pythonRepr(node)) };
    case "countOrSeqOf": {
      // Only the count branch reaches here (a sequence is walked item by item).
      if (typeof v === "boolean" || integralValue(v) === null) {
        return { rule: SCHEMA_TYPE, message: SCHEMA_TYPE.noAlternativeMessage(pythonRepr(node)) };
      }
      if (!numberBelow(v, spec.minimum)) return null;
      return { rule: SCHEMA_MINIMUM, message: SCHEMA_MINIMUM.message(pythonRepr(node), spec.minimum) };
    }
    case "integer":
    case "number": {
      const ok = spec.kind === "integer" ? integralValue(v) !== null : isNumberValue(v);
      if (!ok) return typeProblem([spec.kind]);
      if (numberBelow(v, spec.minimum)) {
        return { rule: SCHEMA_MINIMUM, message: SCHEMA_MINIMUM.message(pythonRepr(node), spec.minimum) };
      }
      if (spec.kind === "integer" && spec.maximum !== undefined && numberAbove(v, spec.maximum)) {
        return { rule: SCHEMA_MAXIMUM, message: SCHEMA_MAXIMUM.message(pythonRepr(node), spec.maximum) };
      }
      return null;
    }
    default:
      return null;
  }
}

const patternCache = new Map<string, RegExp>();

/**
 * Python `re.search` for the schema's own patterns: `$` also matches before a final newline
 * (the only difference that matters for an anchored pattern such as the workflow name's).
 */
function pythonSearch(pattern: string, text: string): boolean {
  let re = patternCache.get(pattern);
  if (re === undefined) {
    re = new RegExp(pattern, "u");
    patternCache.set(pattern, re);
  }
  return re.test(text) || (text.endsWith("\n") && re.test(text.slice(0, -1)));
}
