// Replay of the recorded conformance scenario compile_speckit_ok (test/conformance/recorded/README.md §2): cwd = the
// scenarios directory, the Node workspace, the reference's responses compared key by key, the
// `yaml` string compared as the loaded document (and required to validate).
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { nodeWorkspace } from "../../../host/node-workspace";
import { compileSpeckit } from "../../../interpreter/speckit/compile";
import { wireToPlain } from "../../../interpreter/wire/encode";
import { CONFORMANCE_DIR } from "../../support/shared";
import { loadBack } from "./load-back";

const SCENARIOS = realpathSync(join(CONFORMANCE_DIR, "scenarios"));

interface Action {
  readonly op: string;
  readonly tasks_dir: string;
  readonly flow_name?: string;
}

interface Scenario {
  readonly actions: readonly Action[];
  readonly reference: readonly { readonly op: string; readonly response: Record<string, unknown> }[];
  readonly expect_divergences: readonly { readonly expect?: Record<string, Record<string, unknown>> }[];
}

const scenario = JSON.parse(readFileSync(join(SCENARIOS, "compile_speckit_ok.json"), "utf8")) as Scenario;

describe("compile_speckit_ok", () => {
  scenario.actions.forEach((action, i) => {
    it(`action ${i + 1}: compile_speckit(${action.tasks_dir}, ${action.flow_name ?? "tasks"})`, () => {
      const ours = wireToPlain(
        compileSpeckit(nodeWorkspace, SCENARIOS, action.tasks_dir, action.flow_name ?? "tasks"),
      ) as Record<string, unknown>;
      const recorded = scenario.reference[i + 1]?.response ?? {};
      const { yaml: recordedYaml, ...recordedRest } = recorded;
      // Every recorded key but yaml, exactly (also the divergence's `expect` subset).
      for (const [key, value] of Object.entries(recordedRest)) expect(ours[key]).toEqual(value);
      const expected = scenario.expect_divergences[0]?.expect?.[String(i + 1)] ?? {};
      for (const [key, value] of Object.entries(expected)) expect(ours[key]).toEqual(value);
      // The same document, and a valid spec.
      expect(loadBack(ours.yaml as string)).toEqual(loadBack(recordedYaml as string));
      expect(checkSpec(ours.yaml as string).errors).toEqual([]);
      expect(ours.warnings).toBeUndefined();
    });
  });
});
