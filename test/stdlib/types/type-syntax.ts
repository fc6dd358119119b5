// Test helper: parses the printed type syntax (`list[int]`, `str | none`, `str{'a','b'}`,
// `tuple[int, ...]`, `ns[Review]`) back into a Type, so tables can be written as text.
import { ANY, type RecordType, type Type } from "../../../stdlib/types/type";
import { union } from "../../../stdlib/types/union";

export function parseType(text: string, records: ReadonlyMap<string, RecordType> = new Map()): Type {
  let pos = 0;
  const ws = () => {
    while (text[pos] === " ") pos++;
  };
  const eat = (s: string): boolean => {
    ws();
    if (text.startsWith(s, pos)) {
      pos += s.length;
      return true;
    }
    return false;
  };
  const expect = (s: string) => {
    if (!eat(s)) throw new Error(`expected ${s} at ${pos} in ${text}`);
  };
  const ident = (): string => {
    ws();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(pos));
    if (!m) throw new Error(`expected a name at ${pos} in ${text}`);
    pos += m[0].length;
    return m[0];
  };
  const literals = (): (string | number)[] => {
    const out: (string | number)[] = [];
    while (!eat("}")) {
      eat(",");
      ws();
      const m = /^'([^']*)'|^-?[0-9.]+/.exec(text.slice(pos));
      if (!m) throw new Error(`bad literal at ${pos} in ${text}`);
      pos += m[0].length;
      out.push(m[1] !== undefined ? m[1] : Number(m[0]));
    }
    return out;
  };
  const single = (): Type => {
    const n = ident();
    switch (n) {
      case "any":
      case "none":
      case "bool":
      case "method":
        return { k: n } as Type;
      case "int":
      case "float":
      case "str":
        return eat("{") ? ({ k: n, values: literals() } as Type) : ({ k: n } as Type);
      case "list":
      case "generator": {
        expect("[");
        const elem = full();
        expect("]");
        return { k: n, elem };
      }
      case "tuple": {
        expect("[");
        if (eat("()")) {
          expect("]");
          return { k: "tuple", elems: [] };
        }
        const elems = [full()];
        while (eat(",")) {
          if (eat("...")) {
            expect("]");
            return { k: "tupleOf", elem: elems[0] ?? ANY };
          }
          elems.push(full());
        }
        expect("]");
        return { k: "tuple", elems };
      }
      case "dict":
      case "items": {
        expect("[");
        const key = full();
        expect(",");
        const value = full();
        expect("]");
        return { k: n, key, value };
      }
      case "ns": {
        expect("[");
        const of = full();
        expect("]");
        return { k: "ns", of };
      }
      case "keys": {
        expect("[");
        const key = full();
        expect("]");
        return { k: "keys", key };
      }
      case "values": {
        expect("[");
        const value = full();
        expect("]");
        return { k: "values", value };
      }
      default: {
        const record = records.get(n);
        if (record === undefined) throw new Error(`unknown type ${n}`);
        return { k: "record", record };
      }
    }
  };
  const full = (): Type => {
    const ms = [single()];
    while (eat("|")) ms.push(single());
    return ms.length === 1 ? (ms[0] as Type) : union(...ms);
  };
  const t = full();
  ws();
  if (pos !== text.length) throw new Error(`trailing text at ${pos} in ${text}`);
  return t;
}
