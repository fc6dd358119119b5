// The generated spec as a document (docs/reference/runtime.md §19.4): one compute function and one step per
// task, in a version 0.1 spec whose key order is fixed. `emitYaml` turns it into text.
import type { CompiledCriteria } from "./criteria";
import type { YamlMapping, YamlValue } from "./emit-yaml";

export interface CompiledTask extends CompiledCriteria {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly dependsOn: readonly string[];
}

const map = (entries: readonly (readonly [string, YamlValue])[]): YamlMapping => new Map(entries);

const BOOLEAN_FIELD = map([["type", "boolean"]]);

/**
 * Title, then the description, then `Also verify: ` + the judgment criteria, one per line. A file
 * with none of them would give an empty intent, which does not validate (SCHEMA-NON-EMPTY); the
 * step id stands in for it (our choice: the reference emits the empty string).
 */
function intentOf(task: CompiledTask): string {
  const parts = [task.title];
  if (task.description !== "") parts.push(task.description);
  if (task.judgment.length > 0) parts.push(`Also verify: ${task.judgment.join("; ")}`);
  const intent = parts.join("\n");
  return intent === "" ? task.id : intent;
}

function functionOf(task: CompiledTask): YamlMapping {
  return map([
    ["mode", "compute"],
    ["intent", intentOf(task)],
    ["input", map([["task_context", map([["type", "string"]])]])],
    ["output", "TaskResult"],
    ["ensure", [...task.ensures, "result.done == True"]],
    ["retries", 2],
  ]);
}

function stepOf(task: CompiledTask): YamlMapping {
  const required: string[] = ["done"];
  const properties = new Map<string, YamlValue>([["done", BOOLEAN_FIELD]]);
  for (const [field, needed] of [
    ["tests_pass", task.needsTestsPass],
    ["lint_clean", task.needsLintClean],
  ] as const) {
    if (!needed) continue;
    required.push(field);
    properties.set(field, BOOLEAN_FIELD);
  }
  const step = new Map<string, YamlValue>([
    ["id", task.id],
    ["function", task.id],
    ["inputs", map([["task_context", "$.input.project_context"]])],
    [
      "output_schema",
      map([
        ["type", "object"],
        ["required", required],
        ["properties", properties],
      ]),
    ],
  ]);
  if (task.dependsOn.length > 0) step.set("depends_on", task.dependsOn);
  return step;
}

export function buildSpecDocument(tasks: readonly CompiledTask[], flowName: string): YamlMapping {
  return map([
    ["version", "0.1"],
    ["contracts", map([["TaskResult", map([["done", BOOLEAN_FIELD]])]])],
    ["functions", new Map(tasks.map((task) => [task.id, functionOf(task)]))],
    [
      "flows",
      map([
        [
          flowName,
          map([
            ["input", map([["project_context", map([["type", "string"]])]])],
            ["output", "TaskResult"],
            ["steps", tasks.map(stepOf)],
          ]),
        ],
      ]),
    ],
  ]);
}
