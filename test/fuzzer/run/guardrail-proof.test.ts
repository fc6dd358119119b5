// A guardrail that provably blocks every result of its step: plain text inside the JSON key of a
// required field of the step's contract. Checked against the interpreter's own guardrail search
// on arbitrary results, and refused for anything else (regex syntax, optional fields, values).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ContractIR, FieldDefIR } from "../../../checker/index";
import { blocksEveryResult } from "../../../fuzzer/run/guardrail-proof";
import { guardrailViolations } from "../../../interpreter/flow/guardrails";
import { fromJsonValue } from "../../../stdlib/index";

function contract(fields: Record<string, boolean>): ContractIR {
  const defs = new Map<string, FieldDefIR>();
  for (const [name, required] of Object.entries(fields)) {
    defs.set(name, {
      type: "string",
      kind: "scalar",
      values: null,
      items: null,
      required,
    } as unknown as FieldDefIR);
  }
  return { name: "C", fields: defs, record: null, range: null } as unknown as ContractIR;
}

describe("a guardrail that blocks every result", () => {
  it("is plain text inside the key of a required field", () => {
    const c = contract({ password_hint: true, note: false });
    expect(blocksEveryResult("password", c)).toEqual({ field: "password_hint", held: '"password_hint": ' });
    expect(blocksEveryResult('hint": ', c)).toEqual({ field: "password_hint", held: '"password_hint": ' });
  });

  it("is not claimed for regex syntax, an optional field, a value or no contract", () => {
    const c = contract({ password_hint: true, note: false });
    expect(blocksEveryResult("pass.ord", c)).toBeNull();
    expect(blocksEveryResult("password\\w", c)).toBeNull();
    expect(blocksEveryResult("(?i)PASSWORD", c)).toBeNull();
    expect(blocksEveryResult("note", c)).toBeNull();
    expect(blocksEveryResult("hunter2", c)).toBeNull();
    expect(blocksEveryResult("", c)).toBeNull();
    expect(blocksEveryResult("password", null)).toBeNull();
  });

  it("property: what it claims, the interpreter's guardrail search matches on every result", () => {
    const key = fc.stringMatching(/^[a-z_][a-z0-9_]{0,10}$/);
    const json = fc.jsonValue({ maxDepth: 2 });
    fc.assert(
      fc.property(
        fc.uniqueArray(key, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.array(json, { minLength: 4, maxLength: 4 }),
        fc.dictionary(key, json, { maxKeys: 3 }),
        (names, pick, from, len, values, extra) => {
          const required = names[pick % names.length]!;
          const held = `"${required}": `;
          const start = from % held.length;
          const pattern = held.slice(start, start + 1 + (len % (held.length - start)));
          const claim = blocksEveryResult(pattern, contract(Object.fromEntries(names.map((n) => [n, true]))));
          if (/[.^$*+?{}[\]\\|()]/.test(pattern)) return;
          expect(claim).not.toBeNull();
          // Any result with the required fields (and anything else) is blocked by the interpreter.
          const result = { ...extra, ...Object.fromEntries(names.map((n, i) => [n, values[i % 4]])) };
          const violations = guardrailViolations([pattern], fromJsonValue(result));
          expect(violations.map((v) => v.kind)).toEqual(["guardrail"]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
