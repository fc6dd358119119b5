// Environments for the well-typed property: names whose types have no `any` or `none` member
// (records from generated contracts with required fields, lists, dicts, str/int/float/bool,
// enumerations), and the typed "paths" (names, fields, elements) an expression can read.
import fc from "fast-check";
import { BOOL, FLOAT, INT, RecordType, STR, type Type } from "../../stdlib/types/type";

const FIELD_NAMES = ["score", "label", "tags", "count", "items", "meta", "ok", "status", "keys", "get"];
let recordCounter = 0;

function recordArb(field: fc.Arbitrary<Type>): fc.Arbitrary<Type> {
  return fc
    .uniqueArray(fc.tuple(fc.constantFrom(...FIELD_NAMES), field), {
      minLength: 1,
      maxLength: 4,
      selector: ([n]) => n,
    })
    .map((fields) => {
      const record = new RecordType(`C${recordCounter++}`);
      for (const [name, type] of fields) record.fields.set(name, { type, optional: false });
      return { k: "record", record } as Type;
    });
}

const scalar: fc.Arbitrary<Type> = fc.oneof(
  fc.constantFrom<Type>(INT, FLOAT, STR, BOOL, INT, STR),
  fc.constantFrom<Type>({ k: "str", values: ["ok", "failed", "skipped"] }, { k: "int", values: [1, 2, 3] }),
);

/** A type without `any` / `none` members, nested at most two levels. */
export const typeArb: fc.Arbitrary<Type> = fc.letrec<{ t: Type; inner: Type }>((tie) => ({
  t: fc.oneof(
    { weight: 3, arbitrary: scalar },
    { weight: 2, arbitrary: tie("inner").map((elem): Type => ({ k: "list", elem })) },
    { weight: 1, arbitrary: tie("inner").map((value): Type => ({ k: "dict", key: STR, value })) },
    { weight: 2, arbitrary: recordArb(tie("inner")) },
  ),
  inner: fc.oneof(
    { weight: 4, arbitrary: scalar },
    { weight: 1, arbitrary: scalar.map((elem): Type => ({ k: "list", elem })) },
    { weight: 1, arbitrary: recordArb(scalar) },
  ),
})).t;

/** One readable expression of a known type. */
export interface TypedPath {
  readonly text: string;
  readonly type: Type;
}

/** Names, fields (records only: dict attributes could be missing), elements and values. */
export function pathsOf(name: string, type: Type, depth = 3): TypedPath[] {
  const out: TypedPath[] = [{ text: name, type }];
  if (depth === 0) return out;
  const t = type.k === "ns" ? type.of : type;
  if (t.k === "record") {
    for (const [field, f] of t.record.fields) {
      out.push(...pathsOf(`${name}.${field}`, f.type, depth - 1));
      out.push({ text: `${name}['${field}']`, type: f.type });
    }
  } else if (t.k === "list") {
    out.push(...pathsOf(`${name}[0]`, t.elem, depth - 1));
    out.push({ text: `${name}[-1]`, type: t.elem });
  } else if (t.k === "dict") {
    out.push(...pathsOf(`${name}['a']`, t.value, depth - 1));
  }
  return out;
}

/** Top-level names: a record-typed name is bound as a namespace, typed `ns[record]`. */
export function bindingType(t: Type): Type {
  return t.k === "record" ? { k: "ns", of: t } : t;
}
