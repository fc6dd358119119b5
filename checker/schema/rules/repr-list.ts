// `<repr:list>` of a list of strings, as Python prints it: `['a', 'b']`.
import { strRepr } from "../../../stdlib/values/repr";

export function reprList(items: readonly string[]): string {
  return `[${items.map(strRepr).join(", ")}]`;
}
