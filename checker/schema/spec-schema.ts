// The declarative description of the spec format, versions 0.1, 0.2 and 0.3 (docs/reference/language.md §2–docs/reference/language.md §7 and the
// structural table of docs/reference/language.md §9.5.2). It is the single source of truth for the structure phase
// (walk.ts), the JSON Schema export (json-schema.ts) and the format reference docs/reference/format.md
// (format-doc.ts): every mapping kind lists its keys in catalogue order with their value kinds,
// descriptions, defaults and examples, the keys it requires and the 0.2-only keys. The IR builder applies the defaults named here (DEFAULT_*).
// The vocabulary (value kinds, keys, shapes) is spec-schema-types.ts; a shape as one version sees
// it is resolve-shape.
import { STEP_TYPE_VALUES } from "../base/step-kinds";
import type { Version } from "../base/version";
import { JUDGE, JUDGE_BUDGET, JUDGE_PREDICATE } from "./spec-schema-judge";
import { MEMBER, SYNTHESIS } from "./spec-schema-members";
import { PARALLEL_STEP_KEYS } from "./spec-schema-parallel";
import { FANOUT, STAGE, STAGES_KEY } from "./spec-schema-pipeline";
import { LEADS_TO, PROPERTY } from "./spec-schema-properties";
import type { ShapeName, ShapeSpec, ValueSpec } from "./spec-schema-types";
import { WORKFLOW, WORKFLOW_INPUT } from "./spec-schema-workflow";

export {
  DEFAULT_ISOLATION,
  DEFAULT_MAX_CONCURRENT,
  DEFAULT_MERGE,
  DEFAULT_REQUIRE,
  DEFAULT_TASK_TIMEOUT,
} from "./spec-schema-parallel";
export { WORKFLOW_NAME_PATTERN } from "./spec-schema-workflow";

export const VERSIONS: readonly Version[] = ["0.1", "0.2", "0.3"];

/** Attempts of a function (and so of its steps) without `retries` (docs/reference/language.md §4). */
export const DEFAULT_FUNCTION_RETRIES = 3;
/** Attempts of an inline step without `retries` (docs/reference/language.md §6.2). */
export const DEFAULT_INLINE_STEP_RETRIES = 1;
/** Attempts of a decompose or parallel_dispatch step without `retries` (docs/reference/language.md §6.2). */
export const DEFAULT_PARALLEL_STEP_RETRIES = 2;
/** The values of a step's `type` (0.3); decompose, parallel_dispatch, quorum, race and debate decide the kind. */
export const STEP_TYPES = STEP_TYPE_VALUES;
/** The policy of a gate step without `policy` (docs/reference/language.md §6.2). */
export const DEFAULT_GATE_POLICY = "gate";

const STRING: ValueSpec = { kind: "string" };
const NON_EMPTY_STRING: ValueSpec = { kind: "string", nonEmpty: true };
const NULLABLE_STRING: ValueSpec = { kind: "nullableString" };
const POSITIVE_INTEGER: ValueSpec = { kind: "integer", minimum: 1 };
const STRINGS: ValueSpec = { kind: "seqOf", item: STRING };
const GUARDRAILS: ValueSpec = { kind: "seqOf", item: NON_EMPTY_STRING };
const BUDGET: ValueSpec = { kind: "shape", shape: "budget" };
const POLICY: ValueSpec = { kind: "enum", values: ["gate", "flag", "skip"] };

const ROOT: ShapeSpec = {
  name: "root",
  anchor: "spec",
  title: "Stratum spec",
  description: "A .stratum.yaml spec: contracts, functions and flows.",
  keys: [
    {
      name: "version",
      value: { kind: "version" },
      description: 'Spec format version: "0.1", "0.2" or "0.3" (quoted).',
      example: 'version: "0.3"',
    },
    {
      name: "contracts",
      value: {
        kind: "mapOf",
        value: { kind: "mapOf", value: { kind: "shape", shape: "fieldDef" }, valueTitle: "contract field" },
        valueTitle: "contract",
      },
      description: "Named output shapes: each contract maps field names to field definitions.",
      default: "none (no contracts)",
      example:
        "contracts:\n  Summary:\n    text: {type: string}\n    words: {type: integer, required: false}",
    },
    {
      name: "functions",
      value: { kind: "mapOf", value: { kind: "shape", shape: "function" }, valueTitle: "function" },
      description: "Reusable step definitions, by name.",
      default: "none (no functions)",
      example:
        'functions:\n  summarize:\n    mode: infer\n    intent: "Summarize the text"\n    input: {text: {type: string}}\n    output: Summary',
    },
    {
      name: "flows",
      value: { kind: "mapOf", value: { kind: "shape", shape: "flow" }, valueTitle: "flow" },
      description: "Executable step graphs, by name.",
      default: "none (no flows)",
      example:
        "flows:\n  main:\n    input: {text: {type: string}}\n    output: Summary\n    steps:\n      - id: summarize\n        function: summarize\n        inputs: {text: $.input.text}",
    },
    {
      name: "workflow",
      since: "0.2",
      value: { kind: "shape", shape: "workflow" },
      description: "Makes the file a discoverable workflow (0.2).",
      default: "none (the file is not a discoverable workflow)",
      example:
        'workflow:\n  name: summarize-text\n  description: "Summarize a text"\n  input:\n    text: {type: string}',
    },
    {
      name: "properties",
      since: "0.2",
      value: { kind: "mapOf", value: { kind: "shape", shape: "property" }, valueTitle: "property" },
      description:
        "What must hold on every run of a flow, by name (a stratumc extension, checked by stratumc fuzz; the reference rejects the key).",
      default: "none (no properties)",
      example: "properties:\n  finishes:\n    flow: main\n    eventually: \"$.flow.status == 'complete'\"",
    },
  ],
  required: ["version"],
  otherKeys: "error",
};

const FIELD_DEF: ShapeSpec = {
  name: "fieldDef",
  anchor: "contract-field",
  title: "Contract field definition",
  description: "The type and constraints of one contract field.",
  keys: [
    {
      name: "type",
      value: STRING,
      description:
        "string, number, integer, boolean, array, object, or the name of a contract declared in the same document.",
      example: "type: string",
    },
    {
      name: "values",
      value: { kind: "seqOf", item: { kind: "any" } },
      description: "The value must equal one of these.",
      default: "none (any value of the type)",
      example: "values: [low, medium, high]",
    },
    {
      name: "items",
      value: { kind: "shape", shape: "fieldDef", orTypeName: true },
      description: "Element definition; used only with type: array.",
      default: "none (the elements are not checked)",
      example: "items: {type: string}",
    },
    {
      name: "required",
      value: { kind: "boolean" },
      description: "false: the field may be missing or null (default true).",
      default: "`true`",
      example: "required: false",
    },
    {
      name: "description",
      value: { kind: "any" },
      description: "Documentation only, not checked.",
      default: "none",
      example: 'description: "Between 0 and 1"',
    },
  ],
  required: ["type"],
  // Other keys are allowed and ignored (the semantic warning SPEC-CONTRACT-FIELD-UNKNOWN-KEY).
  otherKeys: "any",
};

const FUNCTION: ShapeSpec = {
  name: "function",
  anchor: "function",
  title: "Function",
  description: "A reusable step definition.",
  keys: [
    {
      name: "mode",
      value: {
        kind: "enum",
        values: {
          "0.1": ["infer", "compute"],
          "0.2": ["infer", "compute", "gate"],
          "0.3": ["infer", "compute", "gate"],
        },
      },
      description: "infer or compute (identical at run time); gate (0.2) for a human approval point.",
      example: "mode: infer",
    },
    {
      name: "intent",
      value: NON_EMPTY_STRING,
      description: "What the function does, for the agent.",
      default:
        '`""` (0.2 gate functions; 0.2 infer/compute functions get the warning SPEC-FN-INTENT-REQUIRED)',
      example: 'intent: "Summarize the text in three sentences"',
    },
    {
      name: "input",
      value: { kind: "freeMapping" },
      description: "Declared inputs (documentation; use {} for none).",
      default: "`{}` (0.2; infer/compute functions get the warning SPEC-FN-INPUT-REQUIRED)",
      example: "input: {text: {type: string}}",
    },
    {
      name: "output",
      value: STRING,
      description: "The name of the output contract.",
      default: '`""` (0.2 gate functions, which have no output)',
      example: "output: Summary",
    },
    {
      name: "ensure",
      value: STRINGS,
      description: "Postcondition expressions over result.",
      default: "`[]`",
      example: 'ensure: ["len(result.text) > 0"]',
    },
    {
      name: "retries",
      value: POSITIVE_INTEGER,
      description: "Maximum number of attempts (default 3); not allowed on gate functions.",
      default: `\`${DEFAULT_FUNCTION_RETRIES}\``,
      example: "retries: 2",
    },
    {
      name: "budget",
      value: BUDGET,
      description: "Recorded budget (ms, usd); not allowed on gate functions.",
      default: "none",
      example: "budget: {ms: 60000, usd: 0.5}",
    },
    {
      name: "model",
      value: STRING,
      description: "Model name, recorded.",
      default: "none",
      example: "model: claude-sonnet",
    },
    {
      name: "timeout",
      since: "0.2",
      value: POSITIVE_INTEGER,
      description: "Seconds until a gate may be auto-killed (gate functions only).",
      default: "none (the gate is never auto-killed)",
      example: "timeout: 3600",
    },
    {
      name: "guardrails",
      since: "0.2",
      value: GUARDRAILS,
      description:
        "Regular expressions (Python re syntax, matched case-insensitively, multi-line) searched in the JSON text of every result; a match blocks the result like a failed ensure. Not allowed on gate functions.",
      default: "`[]`",
      example: "guardrails: ['rm -rf', 'api[_-]?key']",
    },
    {
      name: "cache",
      since: "0.2",
      value: { kind: "boolean" },
      description:
        "Serve a validated result of an earlier run from the result cache for every step of this compute function (same step, function and inputs).",
      default: "`false` (results are not cached)",
      example: "cache: true",
    },
  ],
  required: { "0.1": ["mode", "intent", "input", "output"], "0.2": ["mode"], "0.3": ["mode"] },
  requiredIf: [{ key: "output", versions: ["0.2", "0.3"], when: { key: "mode", in: ["infer", "compute"] } }],
  otherKeys: "error",
};

const BUDGET_SHAPE: ShapeSpec = {
  name: "budget",
  anchor: "budget",
  title: "Budget",
  description:
    "A run budget: a flow's budget is enforced (the flow stops with budget_exhausted when a cap is reached); a function's or step's is recorded only.",
  keys: [
    {
      name: "ms",
      value: POSITIVE_INTEGER,
      description: "Time budget in milliseconds.",
      default: "none",
      example: "ms: 60000",
    },
    {
      name: "usd",
      value: { kind: "number", minimum: 0 },
      description: "Cost budget in US dollars.",
      default: "none",
      example: "usd: 0.5",
    },
    {
      name: "max_agent_dispatches",
      value: POSITIVE_INTEGER,
      description:
        "The most agents the server itself dispatches for the flow (stratum_agent_run, server-side parallel tasks); enforced on a flow's budget only. New in stratum-mcp 0.2.69.",
      default: "none",
      example: "max_agent_dispatches: 20",
    },
    {
      name: "max_tokens",
      value: POSITIVE_INTEGER,
      description:
        "The most tokens the flow may use (the usage reported on stratum_step_done and the server's own agents); enforced on a flow's budget only. New in stratum-mcp 0.2.69.",
      default: "none",
      example: "max_tokens: 200000",
    },
  ],
  required: [],
  otherKeys: "error",
};

const FLOW: ShapeSpec = {
  name: "flow",
  anchor: "flow",
  title: "Flow",
  description: "An executable step graph.",
  keys: [
    {
      name: "input",
      value: { kind: "freeMapping" },
      description: "The flow's declared inputs: input name → documentation such as {type: string}.",
      example: "input: {text: {type: string}}",
    },
    {
      name: "output",
      value: STRING,
      description: "The name of the output contract (documentation; optional in 0.2).",
      default: '`""` (0.2)',
      example: "output: Summary",
    },
    {
      name: "budget",
      value: BUDGET,
      description: "Recorded budget (ms, usd).",
      default: "none",
      example: "budget: {ms: 600000}",
    },
    {
      name: "steps",
      value: { kind: "seqOf", item: { kind: "shape", shape: "step" }, nonEmpty: true },
      description: "The steps, in declaration order.",
      example: "steps:\n  - id: summarize\n    function: summarize\n    inputs: {text: $.input.text}",
    },
    {
      name: "max_rounds",
      since: "0.2",
      value: POSITIVE_INTEGER,
      description: "Maximum number of gate revise resolutions in one execution of the flow.",
      default: "none (any number of revises)",
      example: "max_rounds: 3",
    },
  ],
  required: { "0.1": ["input", "output", "steps"], "0.2": ["input", "steps"], "0.3": ["input", "steps"] },
  otherKeys: "error",
};

const STEP: ShapeSpec = {
  name: "step",
  anchor: "step",
  title: "Step",
  description:
    "One step of a flow: a function, gate, inline (intent) or sub-flow step; in 0.3 also a decompose or parallel_dispatch step.",
  keys: [
    { name: "id", value: STRING, description: "The step id, unique in the flow.", example: "id: summarize" },
    {
      name: "type",
      since: "0.3",
      value: { kind: "enum", values: STEP_TYPES },
      description:
        "decompose, parallel_dispatch, quorum, race or debate (the last three are stratumc extensions) selects that step kind; function, inline and flow change nothing (the kind follows function / intent / flow).",
      default: "none (the kind follows function / intent / flow)",
      example: "type: decompose",
    },
    {
      name: "function",
      value: STRING,
      description: "The function this step runs (function and gate steps).",
      default: "none (0.2 inline and sub-flow steps)",
      example: "function: summarize",
    },
    {
      name: "intent",
      since: "0.2",
      value: STRING,
      description: "The instruction of an inline step.",
      default: "none",
      example: 'intent: "Draft the release notes"',
    },
    {
      name: "flow",
      since: "0.2",
      value: STRING,
      description: "The flow a sub-flow step runs.",
      default: "none",
      example: "flow: review",
    },
    {
      name: "agent",
      since: "0.2",
      value: STRING,
      description: "Agent name, echoed in payloads and records.",
      default: "`null`",
      example: "agent: writer",
    },
    {
      name: "inputs",
      value: { kind: "mapOf", value: STRING, valueTitle: "step input" },
      description: "Input name → a $ reference ($.input.x, $.steps.id.output…) or a literal string.",
      default: "`{}` (0.2)",
      example: "inputs: {text: $.input.text, style: terse}",
    },
    {
      name: "depends_on",
      value: STRINGS,
      description: "Ids of steps of the same flow that must run first.",
      default: "`[]`",
      example: "depends_on: [draft]",
    },
    {
      name: "output_schema",
      value: { kind: "freeMapping" },
      description: "A JSON Schema (draft 2020-12) the result must satisfy (not on gates).",
      default: "none (the result is not checked against a schema)",
      example: "output_schema: {type: object, required: [text]}",
    },
    {
      name: "reasoning_template",
      since: "0.2",
      value: { kind: "freeMapping" },
      description:
        "Inline and decompose steps: sections ({id, label, description}) the agent's artifact must contain as '## <label>' headings; require_citations asks for [P<n>] premise citations in the last section.",
      default: "none (no reasoning certificate)",
      example: "reasoning_template: {require_citations: true}",
    },
    {
      name: "task_reasoning_template",
      since: "0.2",
      value: { kind: "freeMapping" },
      description:
        "parallel_dispatch steps: the reasoning certificate ({sections, require_citations}) each completed task's artifact is checked for.",
      default: "none (task results are not checked for a certificate)",
      example: "task_reasoning_template: {require_citations: false}",
    },
    {
      name: "on_approve",
      since: "0.2",
      value: NULLABLE_STRING,
      description: "Gate route on approve: a step id, or null to complete the flow.",
      default: "`null` (approving completes the flow); a gate step must still write the key",
      example: "on_approve: publish",
    },
    {
      name: "on_kill",
      since: "0.2",
      value: NULLABLE_STRING,
      description: "Gate route on kill: a step id, or null to end the flow.",
      default: "`null` (killing ends the flow); a gate step must still write the key",
      example: "on_kill: null",
    },
    {
      name: "on_revise",
      since: "0.2",
      value: NULLABLE_STRING,
      description: "Gate route on revise: an earlier step id.",
      default: "none (a gate step must set it)",
      example: "on_revise: draft",
    },
    {
      name: "on_fail",
      since: "0.2",
      value: STRING,
      description: "Where to go when the step exhausts its attempts.",
      default: "none (the flow is exhausted when the step runs out of attempts)",
      example: "on_fail: fallback",
    },
    {
      name: "next",
      since: "0.2",
      value: STRING,
      description: "Where to go after success.",
      default: "none (the following step in execution order)",
      example: "next: publish",
    },
    {
      name: "skip_if",
      since: "0.2",
      value: STRING,
      description: "Expression: a true value skips the step (or auto-approves a gate).",
      default: "none (the step always runs)",
      example: 'skip_if: "len($.input.text) < 100"',
    },
    {
      name: "skip_reason",
      since: "0.2",
      value: STRING,
      description: "Reason recorded for a skip.",
      default: "`skip_if: <expression>`",
      example: 'skip_reason: "Short texts need no summary"',
    },
    {
      name: "policy",
      since: "0.2",
      value: POLICY,
      description: "Gate policy: gate, flag or skip.",
      default: `\`${DEFAULT_GATE_POLICY}\``,
      example: "policy: flag",
    },
    {
      name: "policy_fallback",
      since: "0.2",
      value: POLICY,
      description: "Gate policy fallback: gate, flag or skip (needs policy).",
      default: "none (validated only, no run-time effect)",
      example: "policy_fallback: gate",
    },
    {
      name: "ensure",
      since: "0.2",
      value: STRINGS,
      description: "Postcondition expressions (inline, sub-flow, decompose and parallel_dispatch steps).",
      default: "`[]`",
      example: 'ensure: ["result.score >= 0.8"]',
    },
    {
      name: "retries",
      since: "0.2",
      value: POSITIVE_INTEGER,
      description: "Maximum number of attempts (inline, decompose and parallel_dispatch steps).",
      default: `\`${DEFAULT_INLINE_STEP_RETRIES}\` on inline steps, \`${DEFAULT_PARALLEL_STEP_RETRIES}\` on decompose and parallel_dispatch steps; a sub-flow step makes exactly one attempt; a function step uses its function's \`retries\``,
      example: "retries: 2",
    },
    {
      name: "output_contract",
      since: "0.2",
      value: STRING,
      description: "Contract of the result (inline, sub-flow and decompose steps; required on decompose).",
      default: "none (the result is not checked against a contract)",
      example: "output_contract: Summary",
    },
    {
      name: "model",
      since: "0.2",
      value: STRING,
      description: "Model name (inline steps).",
      default: "`null`",
      example: "model: claude-sonnet",
    },
    {
      name: "budget",
      since: "0.2",
      value: BUDGET,
      description: "Recorded budget (inline steps).",
      default: "none",
      example: "budget: {usd: 0.5}",
    },
    {
      name: "max_iterations",
      since: "0.2",
      value: POSITIVE_INTEGER,
      description: "Enables the iteration loop: at most this many iterations.",
      default: "none (no iteration loop)",
      example: "max_iterations: 5",
    },
    {
      name: "exit_criterion",
      since: "0.2",
      value: STRING,
      description: "Expression: a true value ends the iteration loop.",
      default: "none (the loop runs until max_iterations or the agent stops it)",
      example: 'exit_criterion: "len(result.findings) == 0"',
    },
    {
      name: "accumulate",
      since: "0.2",
      value: STRING,
      description: "Expression giving the list of items found by one iteration.",
      default: "none (nothing is accumulated)",
      example: 'accumulate: "result.findings"',
    },
    {
      name: "guardrails",
      since: "0.2",
      value: GUARDRAILS,
      description:
        "Regular expressions (Python re syntax, case-insensitive, multi-line) searched in the JSON text of the result (inline, decompose and parallel steps; a function step uses its function's). A match blocks the result like a failed ensure.",
      default: "`[]`",
      example: "guardrails: ['BEGIN [A-Z ]*PRIVATE KEY']",
    },
    {
      name: "accumulate_key",
      since: "0.2",
      value: STRING,
      description: "Expression over item giving its deduplication key.",
      default: "none (the item itself is its key)",
      example: 'accumulate_key: "item.id"',
    },
    {
      name: "score_expr",
      since: "0.2",
      value: STRING,
      description:
        "Expression over result giving a number: each iteration's score; the loop keeps the best-scored result.",
      default: "none (iterations are not scored)",
      example: 'score_expr: "result.coverage"',
    },
    {
      name: "cache",
      since: "0.2",
      value: { kind: "boolean" },
      description:
        "Serve a validated result of an earlier run from the result cache (compute function steps only).",
      default: "the function's `cache` (default `false`)",
      example: "cache: true",
    },
    ...PARALLEL_STEP_KEYS,
    {
      name: "judge",
      since: "0.2",
      value: { kind: "shape", shape: "judge" },
      description:
        "Makes the step a judge step: the caller judges the predicates with stratum_judge and reports the verdict with stratum_step_done.",
      default: "none (not a judge step)",
      example:
        "judge:\n  predicates:\n    - {id: built, type: deterministic, statement: \"file_exists('artifacts/build.txt')\"}",
    },
    {
      name: "pre_merge_verify",
      since: "0.3",
      value: { kind: "stringOrSeqOf", item: NON_EMPTY_STRING },
      description:
        "parallel_dispatch: commands run in each task's worktree before its diff is kept (no shell); a failing command bounces the task.",
      default: "none (diffs are merged unverified)",
      example: 'pre_merge_verify: ["npm test"]',
    },
    STAGES_KEY,
  ],
  required: { "0.1": ["id", "function", "inputs"], "0.2": ["id"], "0.3": ["id"] },
  otherKeys: "error",
};

export const SHAPES: { readonly [N in ShapeName]: ShapeSpec } = {
  root: ROOT,
  fieldDef: FIELD_DEF,
  function: FUNCTION,
  budget: BUDGET_SHAPE,
  flow: FLOW,
  step: STEP,
  workflow: WORKFLOW,
  workflowInput: WORKFLOW_INPUT,
  member: MEMBER,
  synthesis: SYNTHESIS,
  judge: JUDGE,
  judgePredicate: JUDGE_PREDICATE,
  judgeBudget: JUDGE_BUDGET,
  stage: STAGE,
  fanout: FANOUT,
  property: PROPERTY,
  leadsTo: LEADS_TO,
};
