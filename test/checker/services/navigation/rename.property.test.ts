// Property: renaming any declared step, function, flow, contract or input of a valid spec (the
// examples) to any acceptable name gives a spec with the same diagnostic codes (none for most),
// where the old name is no longer declared and the new one is, with as many references as before.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renameAt } from "../../../../checker/services/navigation";
import { symbolIndex, symbolKey } from "../../../../checker/services/symbols";
import type { SpecDocument } from "../../../../checker/services/types";
import { applyEdits, docOf } from "./support";

const EXAMPLES = readdirSync("examples")
  .filter((f) => f.endsWith(".stratum.yaml"))
  .map((f) => readFileSync(join("examples", f), "utf8"));

const RENAMEABLE = new Set(["step", "function", "flow", "contract", "input"]);

const NAME = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/),
  fc.stringMatching(/^[A-Za-z0-9_]{1,8}$/),
  fc.constantFrom("yes", "null", "on", "007", "1e3", "true"),
  // Needs quoting; refused when a $ path names the symbol.
  fc.constantFrom("a b", "x: y", "[z]", "it's", 'say "hi"', "#tag", "-dash", "é_ü"),
);

const codes = (doc: SpecDocument): string[] => doc.check.diagnostics.map((d) => d.code);
const DOCS = new Map(EXAMPLES.map((text) => [text, docOf(text)]));
let accepted = 0;

describe("rename keeps a valid spec valid", () => {
  it("examples are valid", () => {
    for (const text of EXAMPLES) expect(docOf(text).check.errors).toEqual([]);
  });

  it("any accepted rename: same diagnostic codes, old name gone, new name declared", () => {
    const cases = EXAMPLES.flatMap((text) => {
      const index = symbolIndex(docOf(text));
      return [...index.symbols.values()]
        .filter((s) => RENAMEABLE.has(s.kind) && s.definitions.length > 0)
        .map((symbol) => ({ text, symbol }));
    });
    expect(cases.length).toBeGreaterThan(50);
    fc.assert(
      fc.property(fc.constantFrom(...cases), NAME, ({ text, symbol }, name) => {
        const doc = DOCS.get(text) ?? docOf(text);
        const at = symbol.definitions[0]?.range.start ?? -1;
        const result = renameAt(doc, at, name);
        if (!result.ok) {
          // A refusal is for a reason we can name: the name is taken or unfit for a position.
          expect(result.message).toMatch(/already|must|built-in/);
          return;
        }
        accepted++;
        const after = applyEdits(text, result.edits);
        const afterDoc = docOf(after);
        expect(afterDoc.check.diagnostics.map((d) => d.code)).toEqual(codes(doc));
        if (name === symbol.name) return;
        const index = symbolIndex(afterDoc);
        const old = index.symbols.get(symbolKey(symbol.kind, symbol.scope, symbol.name));
        expect(old?.definitions ?? []).toEqual([]);
        const renamed = index.symbols.get(symbolKey(symbol.kind, symbol.scope, name));
        expect(renamed?.definitions.length).toBe(symbol.definitions.length);
        expect(renamed?.references.length).toBe(symbol.references.length);
      }),
      { numRuns: 200 },
    );
    // Most generated names are acceptable: the property is not vacuous.
    expect(accepted).toBeGreaterThan(100);
  });
});
