// Derived records (docs/reference/language.md §10.12.2): output_schema extension, the properties common to the
// steps that share a function, and the accumulator fields of a stored output.
import { describe, expect, it } from "vitest";
import { commonProperties, type SchemaProperties } from "../../../checker/spec-expr/output-schema";
import { extendRecord, withAccumulatorFields } from "../../../checker/spec-expr/records";
import { typeToString } from "../../../stdlib/types/print";
import { BOOL, FLOAT, INT, RecordType, recordOf, STR } from "../../../stdlib/types/type";
import { union } from "../../../stdlib/types/union";

function fields(r: RecordType): string[] {
  return [...r.fields].map(([n, f]) => `${n}: ${typeToString(f.type)}${f.optional ? " (optional)" : ""}`);
}

const out = new RecordType("Out");
out.fields.set("v", { type: STR, optional: false });

describe("extendRecord", () => {
  it("adds undeclared properties to a copy that keeps the contract's name", () => {
    const props: SchemaProperties = new Map([
      ["v", { type: INT, required: true }],
      ["score", { type: union(INT, FLOAT), required: true }],
      ["note", { type: STR, required: false }],
    ]);
    const r = extendRecord(out, props);
    expect(r).not.toBe(out);
    expect(r.name).toBe("Out");
    expect(fields(r)).toEqual(["v: str", "score: int | float", "note: str | none (optional)"]);
    expect(fields(out)).toEqual(["v: str"]);
  });

  it("returns the record itself when nothing is added", () => {
    expect(extendRecord(out, new Map([["v", { type: INT, required: true }]]))).toBe(out);
    expect(extendRecord(out, new Map())).toBe(out);
  });
});

describe("commonProperties", () => {
  it("keeps the properties of every list, unions their types, required only where all require", () => {
    const a: SchemaProperties = new Map([
      ["x", { type: STR, required: true }],
      ["y", { type: INT, required: true }],
      ["z", { type: BOOL, required: true }],
    ]);
    const b: SchemaProperties = new Map([
      ["y", { type: STR, required: false }],
      ["x", { type: STR, required: true }],
    ]);
    const c = commonProperties([a, b]);
    expect([...c].map(([n, p]) => `${n}: ${typeToString(p.type)} ${p.required}`)).toEqual([
      "x: str true",
      "y: int | str false",
    ]);
  });

  it("is empty for no lists (an unused function)", () => {
    expect(commonProperties([]).size).toBe(0);
  });
});

describe("withAccumulatorFields", () => {
  it("adds optional accumulated / accumulated_count to a copy", () => {
    const r = withAccumulatorFields(out, recordOf(out));
    expect(r).not.toBe(out);
    expect(fields(r)).toEqual([
      "v: str",
      "accumulated: list[Out] | none (optional)",
      "accumulated_count: int | none (optional)",
    ]);
  });
});
