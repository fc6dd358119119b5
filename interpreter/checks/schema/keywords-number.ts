// Numeric keywords (minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf): they apply
// to ints and floats, never to booleans; comparisons are exact between ints and floats, and any
// comparison with NaN is false (so NaN passes the bounds, as in Python).
import type { JsonValue } from "../../../checker/base/json";
import { compareNumbers } from "../../../stdlib/values/numbers";
import { repr, str } from "../../../stdlib/values/repr";
import { isNumeric, pyNumber } from "../json-kinds";
import type { KeywordCheck } from "./keywords";
import { failsMultipleOf } from "./multiple-of";
import { report } from "./sink";

/** A bound keyword: fails when `compare(instance, bound)` says so. */
function bound(fails: (comparison: number) => boolean, words: string): KeywordCheck {
  return (_v, value: JsonValue, instance, _schema, sink) => {
    if (typeof value !== "number" || !isNumeric(instance)) return;
    const limit = pyNumber(value);
    if (fails(compareNumbers(instance, limit))) {
      report(sink, () => `${repr(instance)} ${words} ${repr(limit)}`);
    }
  };
}

const multipleOf: KeywordCheck = (_v, value, instance, _schema, sink) => {
  if (typeof value !== "number" || !isNumeric(instance)) return;
  if (failsMultipleOf(instance, value)) {
    // jsonschema formats the divisor with str(), not repr() (the same text for numbers).
    report(sink, () => `${repr(instance)} is not a multiple of ${str(pyNumber(value))}`);
  }
};

export const NUMBER_KEYWORDS: ReadonlyArray<readonly [string, KeywordCheck]> = [
  ["minimum", bound((c) => c < 0, "is less than the minimum of")],
  ["maximum", bound((c) => c > 0, "is greater than the maximum of")],
  ["exclusiveMinimum", bound((c) => c <= 0, "is less than or equal to the minimum of")],
  ["exclusiveMaximum", bound((c) => c >= 0, "is greater than or equal to the maximum of")],
  ["multipleOf", multipleOf],
];
