// Walks every contract field definition, including nested `items` definitions, with the label
// (`<field>`, `<field>[]`, …) and path prefix (`contracts.<c>.<field>[.items…]`) that the contract
// rules use in their messages (docs/reference/language.md §9.5.3).
import type { ContractDecl, FieldDefDecl, SpecModel } from "../../model/types";

export const BUILTIN_TYPES = ["string", "number", "integer", "boolean", "array", "object"] as const;
export type BuiltinType = (typeof BUILTIN_TYPES)[number];

const BUILTINS: ReadonlySet<string> = new Set(BUILTIN_TYPES);

export interface FieldDefinitionSite {
  readonly contract: ContractDecl;
  /** The field as messages name it: `v`, or `v[]` for its `items`, `v[][]` one level deeper. */
  readonly label: string;
  /** The definition's path: `contracts.<c>.<field>`, then `.items` per nesting level. */
  readonly path: string;
  readonly def: FieldDefDecl;
}

export function* fieldDefinitions(model: SpecModel): Generator<FieldDefinitionSite> {
  for (const contract of model.contracts) {
    for (const field of contract.fields) {
      let def = field.def;
      let label = field.name;
      let path = `contracts.${contract.name}.${field.name}`;
      // Nesting depth is bounded by the document, and each level is a distinct mapping.
      while (def !== null) {
        yield { contract, label, path, def };
        def = def.items;
        label = `${label}[]`;
        path = `${path}.items`;
      }
    }
  }
}

export function isBuiltinType(t: string): t is BuiltinType {
  return BUILTINS.has(t);
}

/** The type of a definition when it is known: a builtin type or a declared contract. */
export function knownType(model: SpecModel, def: FieldDefDecl): string | null {
  const t = def.type;
  if (t === null) return null;
  return isBuiltinType(t.value) || model.contractByName.has(t.value) ? t.value : null;
}
