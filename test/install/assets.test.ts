// The bundled assets: the modules in install/generated/ are up to date with assets/ (rerun
// `node scripts/gen-install-assets.mjs` when this fails), the eleven skills of docs/reference/runtime.md §22.1
// with their front matter and the instructions every skill must give, and every ```yaml example
// in a skill is a valid spec.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { checkSpec } from "../../checker/check-spec";
import { HOOK_SCRIPTS } from "../../install/generated/hook-scripts";
import { SKILLS } from "../../install/generated/skills";
import { HOOK_EVENTS } from "../../install/hook-scripts";

const ASSETS = join(import.meta.dirname, "../../assets");

describe("the generated module is up to date", () => {
  test("hook scripts", () => {
    const files = readdirSync(join(ASSETS, "hooks")).sort();
    expect(HOOK_SCRIPTS.map((h) => h.name)).toEqual(files);
    for (const { name, text } of HOOK_SCRIPTS)
      expect(text).toBe(readFileSync(join(ASSETS, "hooks", name), "utf8"));
  });

  test("skills", () => {
    const folders = readdirSync(join(ASSETS, "skills")).sort();
    expect(SKILLS.map((s) => s.name)).toEqual(folders);
    for (const { name, text } of SKILLS)
      expect(text).toBe(readFileSync(join(ASSETS, "skills", name, "SKILL.md"), "utf8"));
  });
});

test("the three hook scripts of the event table are bundled", () => {
  expect(HOOK_SCRIPTS.map((h) => h.name).sort()).toEqual(HOOK_EVENTS.map((e) => e.script).sort());
  for (const { text } of HOOK_SCRIPTS) {
    expect(text.startsWith("#!/usr/bin/env bash\n")).toBe(true);
    expect(text.endsWith("exit 0\n")).toBe(true);
  }
});

test("the eleven skills of docs/reference/runtime.md §22.1", () => {
  expect(SKILLS.map((s) => s.name).sort()).toEqual(
    [
      "stratum-onboard",
      "stratum-plan",
      "stratum-feature",
      "stratum-review",
      "stratum-debug",
      "stratum-refactor",
      "stratum-migrate",
      "stratum-test",
      "stratum-learn",
      "stratum-build",
      "stratum-speckit",
    ].sort(),
  );
});

describe.each(SKILLS.map((s) => [s.name, s.text] as const))("%s", (name, text) => {
  test("front matter with its name and a description", () => {
    const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
    expect(match).not.toBeNull();
    const front = parse(match?.[1] ?? "") as Record<string, unknown>;
    expect(Object.keys(front)).toEqual(["name", "description"]);
    expect(front.name).toBe(name);
    expect(typeof front.description === "string" && front.description.length >= 80).toBe(true);
  });

  test("tells the agent to write a spec, drive it, narrate, and use MEMORY.md", () => {
    for (const needle of [
      "```yaml",
      "stratum_plan",
      "stratum_step_done",
      "stratum_audit",
      "plain language",
      "MEMORY.md",
    ])
      expect(text, needle).toContain(needle);
  });

  test("every yaml example is a valid spec without warnings", () => {
    const examples = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const result = checkSpec(example);
      expect(result.errors).toEqual([]);
      expect(result.warnings).toEqual([]);
      expect(result.valid).toBe(true);
    }
  });
});
