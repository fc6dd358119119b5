// The explicit tags a spec may use (docs/reference/language.md §1.1) and what they do, as PyYAML's safe loader
// does it: !!str keeps the text, !!int / !!float / !!bool / !!null convert it (or fail), !!seq and
// !!map only confirm the node's kind. The non-specific tag `!` resolves the text as if it were a
// plain scalar, whatever its style (PyYAML: `! "123"` is the int 123).
import type { YamlScalar } from "./nodes";
import { constructFloat, constructInt, type PlainResolution } from "./resolve-plain";

const YAML_ORG = "tag:yaml.org,2002:";

const HONOURED_TAGS: ReadonlySet<string> = new Set(
  ["str", "int", "float", "bool", "null", "seq", "map"].map((t) => YAML_ORG + t),
);

/** `!` or one of the honoured tags (a resolved tag name). */
export function isHonouredTag(name: string): boolean {
  return name === "!" || HONOURED_TAGS.has(name);
}

/** `tag:yaml.org,2002:int` → `!!int`; other names unchanged. */
export function shortTag(name: string): string {
  return name.startsWith(YAML_ORG) ? `!!${name.slice(YAML_ORG.length)}` : name;
}

const BOOL_WORDS: ReadonlyMap<string, boolean> = new Map([
  ["yes", true],
  ["no", false],
  ["true", true],
  ["false", false],
  ["on", true],
  ["off", false],
]);

export type KindName = "scalar" | "sequence" | "mapping";

/** What a tag expects a node to be (`!` fits every kind). */
export function expectedKind(name: string): KindName | null {
  if (name === `${YAML_ORG}seq`) return "sequence";
  if (name === `${YAML_ORG}map`) return "mapping";
  if (HONOURED_TAGS.has(name)) return "scalar";
  return null;
}

/** PyYAML's message when a tag does not fit the node's kind. */
export function kindMismatch(expected: KindName, found: KindName): string {
  return `expected a ${expected} node, but found ${found}`;
}

/** Converts a scalar's text under an honoured scalar tag (not `!`, handled by the caller). */
export function convertTagged(name: string, text: string): PlainResolution {
  switch (name.slice(YAML_ORG.length)) {
    case "int":
      return constructInt(text);
    case "float":
      return constructFloat(text);
    case "bool": {
      const b = BOOL_WORDS.get(text.toLowerCase());
      return b === undefined
        ? { kind: "error", description: `cannot load '${text}' as a boolean` }
        : { kind: "value", value: b };
    }
    case "null":
      return { kind: "value", value: null };
    default:
      return { kind: "value", value: text satisfies YamlScalar };
  }
}
