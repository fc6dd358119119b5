// docs/reference/format.md is rendered from the format description the checker validates with
// (checker/schema/spec-schema.ts) by scripts/gen-docs.mjs, kept up to date by `npm run
// check:generated` (test/scripts/generated.test.ts). Every
// example in it is checked: the complete specs check clean, and every key's example is
// structurally valid (no YAML-* or SCHEMA-* diagnostic) in every version that knows the key, placed
// in a spec that has the other required keys (their own examples).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Version } from "../../../checker/base/version";
import { CATALOGUE } from "../../../checker/catalogue";
import { checkSpec } from "../../../checker/check-spec";
import {
  formatDocAnchor,
  formatDocHref,
  keysWithoutDefault,
  MINIMAL_EXAMPLE,
  TOUR_EXAMPLE,
} from "../../../checker/format-doc";
import { ruleDocAnchor } from "../../../checker/rule-docs";
import { resolveShape } from "../../../checker/schema/resolve-shape";
import {
  DEFAULT_FUNCTION_RETRIES,
  DEFAULT_INLINE_STEP_RETRIES,
  SHAPES,
  VERSIONS,
} from "../../../checker/schema/spec-schema";
import type { KeySpec, ShapeName } from "../../../checker/schema/spec-schema-types";

const docPath = fileURLToPath(new URL("../../../docs/reference/format.md", import.meta.url));
const rulesPath = fileURLToPath(new URL("../../../docs/reference/rules.md", import.meta.url));

/** The explicit anchors of a Markdown text (`<a id="…"></a>`), in order. */
function anchors(text: string): string[] {
  return [...text.matchAll(/^<a id="([^"]+)"><\/a>$/gm)].map((m) => m[1] ?? "");
}

/** The contents of the ```yaml blocks of a Markdown text. */
function yamlBlocks(text: string): string[] {
  return [...text.matchAll(/^```yaml\n([\s\S]*?)\n```$/gm)].map((m) => m[1] ?? "");
}

function indent(lines: readonly string[], by: number): string[] {
  return lines.map((l) => (l === "" ? l : " ".repeat(by) + l));
}

/** How each mapping kind is reached from its parent in the host specs of the key examples. */
const NEST: {
  readonly [N in Exclude<ShapeName, "root">]: { parent: ShapeName; key: string; header: string[] };
} = {
  fieldDef: { parent: "root", key: "contracts", header: ["contracts:", "  C:", "    f:"] },
  function: { parent: "root", key: "functions", header: ["functions:", "  fn:"] },
  budget: { parent: "function", key: "budget", header: ["budget:"] },
  flow: { parent: "root", key: "flows", header: ["flows:", "  f:"] },
  step: { parent: "flow", key: "steps", header: ["steps:", "  -"] },
  workflow: { parent: "root", key: "workflow", header: ["workflow:"] },
  workflowInput: { parent: "workflow", key: "input", header: ["input:", "  i:"] },
  member: { parent: "step", key: "debaters", header: ["debaters:", "  -"] },
  synthesis: { parent: "step", key: "synthesis", header: ["synthesis:"] },
  judge: { parent: "step", key: "judge", header: ["judge:"] },
  judgePredicate: { parent: "judge", key: "predicates", header: ["predicates:", "  -"] },
  judgeBudget: { parent: "judge", key: "budget", header: ["budget:"] },
  stage: { parent: "step", key: "stages", header: ["stages:", "  -"] },
  fanout: { parent: "stage", key: "fanout", header: ["fanout:"] },
  property: { parent: "root", key: "properties", header: ["properties:", "  p:"] },
  leadsTo: { parent: "property", key: "leads_to", header: ["leads_to:"] },
};

/** The examples of the keys a mapping of this kind needs in this version, except `except`. */
function fillers(name: ShapeName, version: Version, except: string): string[] {
  const shape = resolveShape(name, version);
  const needed = new Set([...shape.required, ...(shape.spec.requiredIf ?? []).map((c) => c.key)]);
  needed.delete(except);
  const out: string[] = [];
  for (const key of needed) {
    if (name === "root" && key === "version") out.push(`version: "${version}"`);
    else out.push(...(shape.keys.get(key)?.example.split("\n") ?? []));
  }
  return out;
}

/** A whole spec of `version` in which `body` is the content of a mapping of kind `name`. */
function host(name: ShapeName, body: string[], version: Version, bodyKey: string): string {
  let shape = name;
  let lines = [...fillers(shape, version, bodyKey), ...body];
  while (shape !== "root") {
    const nest = NEST[shape];
    const depth = (nest.header.length - 1) * 2 + 2;
    const inner = [...nest.header, ...indent(lines, depth)];
    shape = nest.parent;
    lines = [...fillers(shape, version, nest.key), ...inner];
  }
  return `${lines.join("\n")}\n`;
}

/** Whether the keys that lead to a mapping of this kind exist in `version` (`workflow` is 0.2). */
function reachable(name: ShapeName, version: Version): boolean {
  for (let shape = name; shape !== "root"; ) {
    const nest = NEST[shape];
    if (!resolveShape(nest.parent, version).keys.has(nest.key)) return false;
    shape = nest.parent;
  }
  return true;
}

const allKeys: [ShapeName, KeySpec][] = Object.values(SHAPES).flatMap((s) =>
  s.keys.map((k): [ShapeName, KeySpec] => [s.name, k]),
);

describe("docs/reference/format.md", () => {
  const text = existsSync(docPath) ? readFileSync(docPath, "utf8") : "(missing)";

  it("has one explicit anchor per section and per key, and every link inside the page resolves", () => {
    const found = anchors(text);
    expect(new Set(found).size).toBe(found.length);
    for (const shape of Object.values(SHAPES)) {
      expect(found).toContain(formatDocAnchor(shape.name));
      for (const key of shape.keys) {
        expect(found).toContain(formatDocAnchor(shape.name, key.name));
        expect(formatDocHref(shape.name, key.name)).toMatch(
          new RegExp(`/docs/reference/format\\.md#${shape.anchor}\\.${key.name}$`),
        );
      }
    }
    expect(formatDocAnchor("step", "retries")).toBe("step.retries");
    for (const m of text.matchAll(/\]\(#([^)]+)\)/g)) expect(found).toContain(m[1]);
    const ruleAnchors = anchors(readFileSync(rulesPath, "utf8"));
    for (const m of text.matchAll(/\]\(rules\.md#([^)]+)\)/g)) {
      expect(ruleAnchors).toContain(m[1]);
      expect([...CATALOGUE.keys()].map(ruleDocAnchor)).toContain(m[1]);
    }
  });

  it("shows exactly the complete examples and one example per key", () => {
    expect(yamlBlocks(text)).toEqual([MINIMAL_EXAMPLE, TOUR_EXAMPLE, ...allKeys.map(([, k]) => k.example)]);
  });

  it("has complete examples that check clean (no error, no warning)", () => {
    for (const example of [MINIMAL_EXAMPLE, TOUR_EXAMPLE]) expect(checkSpec(example).diagnostics).toEqual([]);
  });

  it("has key examples that are structurally valid in every version that knows the key", () => {
    for (const [name, key] of allKeys) {
      expect(key.example.startsWith(`${key.name}:`), key.name).toBe(true);
      for (const version of VERSIONS) {
        if ((key.since !== undefined && key.since > version) || !reachable(name, version)) continue;
        const spec =
          name === "root" && key.name === "version"
            ? `${key.example}\n`
            : host(name, key.example.split("\n"), version, key.name);
        const structural = checkSpec(spec).diagnostics.filter(
          (d) => d.code.startsWith("YAML-") || d.code.startsWith("SCHEMA-"),
        );
        expect(structural, `${formatDocAnchor(name, key.name)} in ${version}:\n${spec}`).toEqual([]);
      }
    }
  });

  it("gives the default of every key that is optional in some version", () => {
    expect(keysWithoutDefault()).toEqual([]);
  });

  it("documents the retry defaults the checked IR (hence the interpreter) applies", () => {
    expect(DEFAULT_FUNCTION_RETRIES).toBe(3); // docs/reference/language.md §4
    expect(DEFAULT_INLINE_STEP_RETRIES).toBe(1); // docs/reference/language.md §6.2
    const minimal = checkSpec(MINIMAL_EXAMPLE).ir;
    expect(minimal?.functions.get("summarize")?.retries).toBe(DEFAULT_FUNCTION_RETRIES);
    expect(minimal?.flows.get("main")?.stepById.get("summarize")?.retries).toBe(DEFAULT_FUNCTION_RETRIES);
    const tour = checkSpec(TOUR_EXAMPLE).ir;
    expect(tour?.flows.get("polish")?.stepById.get("polish")?.retries).toBe(DEFAULT_INLINE_STEP_RETRIES);
    expect(tour?.flows.get("release-notes")?.stepById.get("polish")?.retries).toBe(1);
    expect(text).toContain(
      `| [\`retries\`](#function.retries) | integer ≥ 1 | no | \`${DEFAULT_FUNCTION_RETRIES}\` |`,
    );
  });
});
