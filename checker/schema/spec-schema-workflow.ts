// The `workflow` block of a spec and its inputs (docs/reference/language.md §7): a part of the format's
// declarative description (spec-schema.ts), kept apart so each file has one subject.
import type { ShapeSpec, ValueSpec } from "./spec-schema-types";

const NON_EMPTY_STRING: ValueSpec = { kind: "string", nonEmpty: true };

export const WORKFLOW_NAME_PATTERN = "^[a-z][a-z0-9-]*$";

export const WORKFLOW: ShapeSpec = {
  name: "workflow",
  anchor: "workflow",
  title: "Workflow",
  description: "Makes the file a discoverable workflow.",
  keys: [
    {
      name: "name",
      value: { kind: "string", pattern: WORKFLOW_NAME_PATTERN },
      description: "Workflow name (lowercase letters, digits, '-'); names the entry flow.",
      example: "name: release-notes",
    },
    {
      name: "description",
      value: NON_EMPTY_STRING,
      description: "What the workflow does.",
      example: 'description: "Draft release notes from merged changes"',
    },
    {
      name: "input",
      value: {
        kind: "mapOf",
        value: { kind: "shape", shape: "workflowInput" },
        valueTitle: "workflow input",
      },
      description: "Input name → {type, required?, default?}; must match the entry flow's inputs.",
      example:
        "input:\n  since: {type: string, required: true}\n  audience: {type: string, default: developers}",
    },
  ],
  required: ["name", "description", "input"],
  otherKeys: "error",
};

const WORKFLOW_INPUT_TYPES = ["string", "boolean", "integer", "number", "array", "object"] as const;

export const WORKFLOW_INPUT: ShapeSpec = {
  name: "workflowInput",
  anchor: "workflow-input",
  title: "Workflow input",
  description: "One workflow input (metadata for tools that list workflows).",
  keys: [
    {
      name: "type",
      value: { kind: "enum", values: WORKFLOW_INPUT_TYPES },
      description: "The input's JSON type.",
      example: "type: string",
    },
    {
      name: "required",
      value: { kind: "boolean" },
      description: "Whether the input must be given.",
      default: "none (metadata for tools that list workflows; not applied when a flow is planned)",
      example: "required: true",
    },
    {
      name: "default",
      value: { kind: "any" },
      description: "Default value (metadata only).",
      default: "none (metadata only; not applied when a flow is planned)",
      example: "default: developers",
    },
  ],
  required: ["type"],
  otherKeys: "any",
};
