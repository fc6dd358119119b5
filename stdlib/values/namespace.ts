// The namespace bound to `result` / `item` (docs/reference/language.md §10.7.3).
import { type PyDict, PyNamespace } from "./value";

export function makeNamespace(d: PyDict): PyNamespace {
  return new PyNamespace(d);
}
