// Replay of the recorded conformance scenario list_workflows_directory (test/conformance/recorded/README.md §2):
// cwd = the scenarios directory, the Node workspace, the working directory replaced by `<CWD>`,
// every recorded response compared exactly.
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeWorkspace } from "../../../host/node-workspace";
import { wireToPlain } from "../../../interpreter/wire/encode";
import { listWorkflows } from "../../../interpreter/workspace/list-workflows";
import { CONFORMANCE_DIR } from "../../support/shared";

const SCENARIOS = realpathSync(join(CONFORMANCE_DIR, "scenarios"));

interface Scenario {
  readonly actions: readonly { readonly op: string; readonly dir: string }[];
  readonly reference: readonly { readonly op: string; readonly response: unknown }[];
}

const scenario = JSON.parse(
  readFileSync(join(SCENARIOS, "list_workflows_directory.json"), "utf8"),
) as Scenario;

/** The working directory → `<CWD>` in every string. */
function normalise(v: unknown): unknown {
  if (typeof v === "string") return v.split(SCENARIOS).join("<CWD>");
  if (Array.isArray(v)) return v.map(normalise);
  if (typeof v === "object" && v !== null) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalise(x)]));
  }
  return v;
}

describe("list_workflows_directory", () => {
  scenario.actions.forEach((action, i) => {
    it(`action ${i + 1}: list_workflows(${action.dir})`, () => {
      const ours = normalise(wireToPlain(listWorkflows(nodeWorkspace, SCENARIOS, action.dir)));
      expect(ours).toEqual(scenario.reference[i + 1]?.response);
    });
  });
});
