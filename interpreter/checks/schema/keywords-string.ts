// String keywords (minLength, maxLength, pattern): lengths count code points, as Python's len();
// patterns are ECMAScript (`u` flag) and match anywhere (Python's re.search).
import { repr } from "../../../stdlib/values/repr";
import { cpLength } from "../../../stdlib/values/strings";
import type { KeywordCheck } from "./keywords";
import { unsupportedMessage } from "./regex";
import { report } from "./sink";

const minLength: KeywordCheck = (_v, value, instance, _schema, sink) => {
  if (typeof instance !== "string" || typeof value !== "number" || !(cpLength(instance) < value)) return;
  report(sink, () => `${repr(instance)} ${value === 1 ? "should be non-empty" : "is too short"}`);
};

const maxLength: KeywordCheck = (_v, value, instance, _schema, sink) => {
  if (typeof instance !== "string" || typeof value !== "number" || !(cpLength(instance) > value)) return;
  report(sink, () => `${repr(instance)} ${value === 0 ? "is expected to be empty" : "is too long"}`);
};

const pattern: KeywordCheck = (v, value, instance, _schema, sink) => {
  if (typeof instance !== "string" || typeof value !== "string") return;
  const found = v.search(value, instance);
  if (found === false) {
    report(sink, () => `${repr(instance)} does not match ${repr(value)}`);
  } else if (found !== null && found !== true) {
    report(sink, () => unsupportedMessage(value, found.unsupported));
  }
};

export const STRING_KEYWORDS: ReadonlyArray<readonly [string, KeywordCheck]> = [
  ["minLength", minLength],
  ["maxLength", maxLength],
  ["pattern", pattern],
];
