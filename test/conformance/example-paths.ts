// The `$` path data of the docs/reference/language.md §10.5 example: inputs {do_skip: true, name: "bob"};
// outputs s1 = {skip: true, label: "x", nested: {a: 1}}, s2 = None (skipped), s3 not run.
import type { PathSource } from "../../interpreter/eval/compile";
import { dictGetStr } from "../../stdlib/values/dict";
import { parseJson } from "../../stdlib/values/json";
import { PyDict } from "../../stdlib/values/value";

function object(json: string): PyDict {
  const v = parseJson(json);
  if (!(v instanceof PyDict)) throw new Error("expected an object");
  return v;
}

export function examplePaths(): PathSource {
  const inputs = object(`{"do_skip": true, "name": "bob"}`);
  const outputs = object(`{"s1": {"skip": true, "label": "x", "nested": {"a": 1}}, "s2": null}`);
  return {
    input: (name) => dictGetStr(inputs, name),
    stepOutput: (id) => dictGetStr(outputs, id),
  };
}
