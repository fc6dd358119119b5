// Which data a property reads: the `$` paths of its expressions that exhaustive mode does not
// enumerate. Exhaustive paths vary the control (every gate decision, pass or fail of each step,
// the finite inputs), not the values of step outputs or of inputs drawn once: a property over those
// holds on the paths without being proven over every value, so its verdict stops at `not_refuted`.
import type { PropertyIR } from "../../checker/index";
import { walk } from "../../grammar/index";

/**
 * The texts of the data paths `property` reads (`$.steps.a.output.n`, `$.input.limit`), in order,
 * without repeats; `enumerated` are the inputs exhaustive mode tried with every value.
 */
export function dataReadBy(property: PropertyIR, enumerated: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const e of [property.condition, property.to]) {
    if (e === null) continue;
    walk(e.ast, {
      enter(node) {
        if (node.kind !== "Path" || node.ref === null) return true;
        const data = node.ref.scope === "steps" || !enumerated.has(node.ref.name.name);
        if (data && !out.includes(node.text)) out.push(node.text);
        return true;
      },
    });
  }
  return out;
}
