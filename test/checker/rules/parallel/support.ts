// Shared texts of the version 0.3 tests: a decompose + parallel_dispatch flow whose steps can be
// varied one key at a time, and a compact view of the diagnostics.
import { type CheckResult, checkSpec } from "../../../../checker/check-spec";

export const CONTRACTS = `contracts:
  Task:
    id: {type: string}
    description: {type: string}
  TaskGraph:
    tasks: {type: array, items: {type: Task}}
`;

/** A 0.3 spec with a decompose step `plan` and the given lines as the second step (`run`). */
export function spec03(...runLines: string[]): string {
  return [
    'version: "0.3"',
    CONTRACTS.trimEnd(),
    "flows:",
    "  f:",
    "    input: {tasks: {type: array}}",
    "    steps:",
    "      - id: plan",
    "        type: decompose",
    "        agent: claude",
    "        intent: Plan",
    "        output_contract: TaskGraph",
    ...runLines.map((l) => `      ${l}`),
    "",
  ].join("\n");
}

/** The standard parallel step plus extra keys (each a `key: value` line). */
export function parallel(...extra: string[]): string {
  return spec03(
    "- id: run",
    "  type: parallel_dispatch",
    '  source: "$.steps.plan.output.tasks"',
    '  intent_template: "Do {task.description}"',
    "  depends_on: [plan]",
    ...extra.map((l) => `  ${l}`),
  );
}

/** `CODE path: message` of every diagnostic (errors and warnings). */
export function shown(text: string): string[] {
  return checkSpec(text).diagnostics.map((d) => `${d.code} ${d.path}: ${d.message}`);
}

export function check(text: string): CheckResult {
  return checkSpec(text);
}
