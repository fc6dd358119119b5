// The keyword checks of draft 2020-12 that `output_schema` validation applies, by keyword name.
// Keywords not listed (annotations such as `format`, `title`, `$defs`, `then`/`else`/`minContains`,
// which their neighbours read, and anything unknown) are ignored.
import type { JsonObject, JsonValue } from "../../../checker/base/json";
import type { PyValue } from "../../../stdlib/values/value";
import { ARRAY_KEYWORDS } from "./keywords-array";
import { CORE_KEYWORDS } from "./keywords-core";
import { NUMBER_KEYWORDS } from "./keywords-number";
import { OBJECT_KEYWORDS } from "./keywords-object";
import { STRING_KEYWORDS } from "./keywords-string";
import type { Sink } from "./sink";
import type { SchemaValidator } from "./validator";

/** One keyword (jsonschema's `validator(self, value, instance, schema)`): adds its errors to `sink`. */
export type KeywordCheck = (
  validator: SchemaValidator,
  value: JsonValue,
  instance: PyValue,
  schema: JsonObject,
  sink: Sink,
) => void;

export const KEYWORDS: ReadonlyMap<string, KeywordCheck> = new Map<string, KeywordCheck>([
  ...CORE_KEYWORDS,
  ...NUMBER_KEYWORDS,
  ...STRING_KEYWORDS,
  ...ARRAY_KEYWORDS,
  ...OBJECT_KEYWORDS,
]);
