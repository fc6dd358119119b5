// SPEC-CONTRACT-SHORTHAND: the reference's shorthands in field definitions, `type: enum` with
// `values` and `items: <type>`, are accepted and mean their canonical form (model/build.ts turns
// them into it, so types, the IR and run-time checks see the normal shape); this note shows it.
import { valueRange } from "../../anchors";
import { defineRule } from "../../rule";
import { replaceScalar } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_CONTRACT_SHORTHAND = defineRule({
  code: "SPEC-CONTRACT-SHORTHAND",
  severity: "info",
  family: "contract",
  errorType: "ir_semantic_error",
  title: "A contract field uses a shorthand of the reference implementation",
  doc: "stratum-mcp accepts `type: enum` with `values` and `items: <type>` in contract fields, so this implementation accepts them too and reads them in their canonical form: an enum is a field of the values' type (string, integer, number or boolean) restricted to `values`, and `items: string` is `items: {type: string}`. Nothing is wrong; the note shows the canonical form, which the fix writes. An enum whose values mix types has no canonical form and stays an unknown type.",
  example: {
    bad: "contracts:\n  Review:\n    verdict: {type: enum, values: [approve, reject]}\n    findings: {type: array, items: string}",
    good: "contracts:\n  Review:\n    verdict: {type: string, values: [approve, reject]}\n    findings: {type: array, items: {type: string}}",
  },
  fix: "Writes the canonical form: type: enum becomes the type its values share, and items: <type> becomes items: {type: <type>}; offered in the editor but not applied by check --fix, since dispatch payloads show the type as written.",
  message: (contract: string, field: string, written: string, canonical: string) =>
    `Contract '${contract}' field '${field}': ${written} is the reference's shorthand for ${canonical}`,
  visit(on: RuleVisitor): void {
    on.onContractField((site, { model, reporter }) => {
      const shorthand = site.def.shorthand;
      if (shorthand === null) return;
      const node = shorthand.entry.value;
      const written = shorthand.kind === "enum" ? "type: enum" : `items: ${site.def.type?.value ?? ""}`;
      const canonical =
        shorthand.kind === "enum" ? `type: ${shorthand.canonical}` : `items: ${shorthand.canonical}`;
      const label = shorthand.kind === "enum" ? site.label : site.label.slice(0, -2);
      const path = shorthand.kind === "enum" ? `${site.path}.type` : site.path;
      const edit =
        shorthand.kind === "enum"
          ? replaceScalar(node, shorthand.canonical)
          : { range: node.range, newText: shorthand.canonical };
      reporter.report(SPEC_CONTRACT_SHORTHAND, {
        message: SPEC_CONTRACT_SHORTHAND.message(site.contract.name, label, written, canonical),
        path,
        range: valueRange(model.source, shorthand.entry),
        suggestion: `Write ${canonical}`,
        fix: {
          description: `Write ${canonical}`,
          edits: [edit],
          // The reference shows the type as written in dispatch payloads (`output_fields`), so
          // the rewrite changes what agents see: offered, not applied by `check --fix`.
          machineApplicable: false,
        },
      });
    });
  },
});
