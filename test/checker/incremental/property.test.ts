// Property: for every example spec and random edits (anywhere, biased into scalars, and into
// quoted and block scalars where the expressions are), each successive incremental check equals
// a full checkSpec of the same text — public diagnostics, the YAML tree the model is built on, and
// what the editor services answer (hover, completion, definition, references, signature help at
// random offsets; symbols, folding ranges, semantic tokens).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { IncrementalChecker } from "../../../checker/incremental/incremental-checker";
import { DiagnosticSink } from "../../../checker/report";
import { SpecSource } from "../../../checker/source";
import { loadYaml } from "../../../checker/yaml/load";
import type { ScalarNode, SpecNode } from "../../../checker/yaml/nodes";
import { applyEdit, checkShape, exampleSpecs, servicesShape, treeShape } from "./support";

const SPECS = exampleSpecs();

type Where = "anywhere" | "scalar" | "expression";

interface Edit {
  readonly where: Where;
  readonly at: number;
  readonly within: number;
  readonly remove: number;
  readonly insert: string;
}

const CHARS = [..."abz019 _.:#-'\"\\[]{},|>&*!%@`$()=<\n\t", "é", "\u{1F600}", "\u2028", "  ", ": ", " #"];
const TOKENS = [
  "result.",
  " and ",
  " or not ",
  "len(",
  ")",
  "'x'",
  "$.steps.",
  "$.input.",
  " == ",
  "0.5",
  "item",
];

const insertText = fc.oneof(
  fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 4 }),
  fc.array(fc.constantFrom(...TOKENS), { maxLength: 2 }).map((t) => t.join("")),
  fc.constantFrom("", "x", "e"),
);

const edit: fc.Arbitrary<Edit> = fc.record({
  where: fc.constantFrom<Where>("anywhere", "scalar", "expression", "expression"),
  at: fc.nat(),
  within: fc.nat(),
  remove: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 6 })),
  insert: insertText,
});

function scalars(node: SpecNode, into: ScalarNode[]): ScalarNode[] {
  if (node.kind === "scalar") {
    if (node.range.end > node.range.start) into.push(node);
  } else if (node.kind === "map") {
    for (const e of node.entries) {
      scalars(e.key, into);
      scalars(e.value, into);
    }
  } else {
    for (const item of node.items) scalars(item, into);
  }
  return into;
}

/** Where an edit lands in `text`: anywhere, or inside a scalar of its loaded tree. */
function place(text: string, e: Edit): { start: number; end: number } {
  let start = e.at % (text.length + 1);
  if (e.where !== "anywhere") {
    const all = scalars(loadYaml(new SpecSource(text), new DiagnosticSink()).root, []);
    const pool = e.where === "expression" ? all.filter((s) => s.style !== "plain") : all;
    const target = pool[e.at % Math.max(1, pool.length)];
    if (target !== undefined) {
      start = target.range.start + (e.within % (target.range.end - target.range.start + 1));
    }
  }
  return { start, end: Math.min(text.length, start + e.remove) };
}

describe("incremental checks equal full checks", () => {
  it("on every example with random successive edits (property)", () => {
    let patched = 0;
    let checks = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...SPECS),
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(), { minLength: 2, maxLength: 2 }),
        ([, original], edits, offsets) => {
          const checker = new IncrementalChecker();
          checker.check(original);
          let text = original;
          for (const e of edits) {
            const { start, end } = place(text, e);
            text = applyEdit(text, start, end, e.insert);
            const result = checker.check(text);
            const full = checkSpec(text);
            checks++;
            if (checker.yamlReuse === "patched") patched++;
            expect(checkShape(result)).toEqual(checkShape(full));
            expect(result.model === null).toBe(full.model === null);
            if (result.model !== null && full.model !== null) {
              expect(treeShape(result.model.root)).toEqual(treeShape(full.model.root));
            }
            const at = offsets.map((o) => o % (text.length + 1));
            at.push(Math.min(text.length, start + 1));
            expect(servicesShape(text, result, at)).toEqual(servicesShape(text, full, at));
          }
        },
      ),
      { numRuns: 250 },
    );
    // The fast path must actually be exercised (a third of the edits aim into quoted and block
    // scalars and many of them keep the structure).
    expect(patched).toBeGreaterThan(checks / 6);
  });

  it("the checked IR of a valid spec is the same (property)", () => {
    const valid = SPECS.filter(([, text]) => checkSpec(text).valid);
    expect(valid.length).toBeGreaterThan(5);
    fc.assert(
      fc.property(fc.constantFrom(...valid), edit, ([, original], e) => {
        const checker = new IncrementalChecker();
        checker.check(original);
        const { start, end } = place(original, { ...e, where: "expression" });
        const text = applyEdit(original, start, end, e.insert);
        const result = checker.check(text);
        expect(result.ir).toEqual(checkSpec(text).ir);
      }),
      { numRuns: 100 },
    );
  });
});
