// Navigation and rename through a spec's `properties`: the `$.steps.<id>` and `$.gates.<id>`
// paths of a property's conditions name steps of its flow, and its `flow` names a flow.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { definitionAt, referencesAt, renameAt } from "../../../../checker/services/navigation";
import { applyEdits, docOf, show } from "./support";

const SPEC = readFileSync(
  new URL("../../../../examples/release-properties.stratum.yaml", import.meta.url),
  "utf8",
);
const doc = docOf(SPEC);
const at = (needle: string, skip = 0): number => {
  const i = SPEC.indexOf(needle);
  expect(i).toBeGreaterThanOrEqual(0);
  return i + skip;
};

function renamed(offset: number, name: string): string {
  const r = renameAt(doc, offset, name);
  if (!r.ok) throw new Error(r.message);
  return applyEdits(SPEC, r.edits);
}

describe("properties in navigation", () => {
  it("a step id inside a property's path goes to the step", () => {
    expect(show(doc, definitionAt(doc, at("$.steps.build.attempts", 9)))).toEqual(["45:build"]);
  });

  it("a gate's references include its property paths", () => {
    // on_revise/on_approve routes name other steps; sign_off is named by its id and two paths
    expect(show(doc, referencesAt(doc, at("id: sign_off", 5), true))).toEqual([
      "48:sign_off",
      "60:sign_off",
      "70:sign_off",
    ]);
  });

  it("renaming a gate rewrites its $.gates paths, and the spec stays clean", () => {
    const after = renamed(at("id: sign_off", 5), "approval");
    expect(after).toContain(
      `always: "$.steps.deploy.status != 'done' or $.gates.approval.outcome == 'approve'"`,
    );
    expect(after).toContain(`from: "$.gates.approval.outcome == 'revise'"`);
    expect(docOf(after).check.diagnostics).toEqual([]);
  });

  it("renaming a flow rewrites the properties' flow", () => {
    const after = renamed(at("  release:", 3), "ship");
    expect(after.match(/ {4}flow: ship\n/g)).toHaveLength(5);
    expect(docOf(after).check.diagnostics).toEqual([]);
  });
});
