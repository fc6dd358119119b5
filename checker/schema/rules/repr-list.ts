// `<repr:list>` of a list of strings, as Python prints it: `['a', 'b']`.
import { strRepr } from "../../../stdlib/values/repr";

export function reprList(items: readonly string[]): string {
  return `[${items.map(strRepr).join(", ")}]`;
}

/** The suggestion of every SCHEMA diagnostic that has no specific one (the reference's default). */
export const DEFAULT_SCHEMA_SUGGESTION = "See IR schema documentation";
