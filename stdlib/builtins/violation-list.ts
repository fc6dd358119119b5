// `raise ValueError([m1, m2, …])`: how the reference's ensure helpers plan_completion and
// vocabulary_compliance answer "no" (docs/reference/language.md §10.9). An ensure lists each message as
// its own violation; any other expression sees the error's text, Python's str of it: the list's repr.
import { PyError } from "../values/errors";
import { strRepr } from "../values/repr";

export function violationList(messages: readonly string[]): PyError {
  return new PyError("ValueError", `[${messages.map(strRepr).join(", ")}]`, true, messages);
}
