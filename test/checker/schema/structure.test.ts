// Table tests of the structure phase (docs/reference/language.md §1.1, docs/reference/language.md §1.2, docs/reference/language.md §9.5.2): for each input, the exact
// list of SCHEMA diagnostics — code, path, message, suggestion, full range and fix edits.
import { describe, expect, it } from "vitest";
import { runStructure, type Shown, yaml } from "./helpers";

// The exact help texts are tested in help.test.ts; here only their form.
const DEFAULT: string = expect.stringMatching(/^(Write|Quote|Remove|Add|Use) /);

/** A 0.2 document whose single flow `f` has the given step lines (indented by 6). */
function step02(...lines: string[]): string {
  return yaml('version: "0.2"', "flows:", "  f:", "    input: {}", "    steps:", ...lines);
}

interface Case {
  readonly name: string;
  readonly text: string;
  readonly expect: readonly Shown[];
  /** Whether a model is built (default: true). */
  readonly model?: boolean;
}

function run(cases: readonly Case[]): void {
  for (const c of cases) {
    it(c.name, () => {
      const r = runStructure(c.text);
      expect(r.loaded).toBe(true);
      expect(r.shown).toEqual(c.expect);
      expect(r.model !== null).toBe(c.model ?? true);
    });
  }
}

describe("version and root (docs/reference/language.md §1.1, docs/reference/language.md §1.2)", () => {
  const unknown = (message: string, at: string): Shown => ({
    code: "SCHEMA-VERSION-UNKNOWN",
    path: "version",
    message,
    suggestion: 'Use version: "0.3"',
    at,
  });
  run([
    {
      name: "missing version",
      text: yaml("flows: {}"),
      expect: [
        {
          ...unknown("Unknown IR version: ''", "1:1-1:1"),
          suggestion: 'Add version: "0.3" as the first line of the file',
        },
      ],
      model: false,
    },
    {
      // The rest of the document is still checked against the 0.2 structure (no model).
      name: "unknown version string",
      text: yaml('version: "0.9"', "bogus: 1"),
      expect: [
        unknown("Unknown IR version: '0.9'", "1:10-1:15"),
        {
          code: "SCHEMA-UNKNOWN-KEY",
          path: "root",
          message: "Additional properties are not allowed ('bogus' was unexpected)",
          suggestion: "Remove unrecognised fields",
          at: "2:1-2:6",
        },
      ],
      model: false,
    },
    {
      name: "null version",
      text: yaml("version: ~"),
      expect: [unknown("Unknown IR version: 'None'", "1:10-1:11")],
      model: false,
    },
    {
      name: "boolean version (YAML 1.1 yes)",
      text: yaml("version: yes"),
      expect: [unknown("Unknown IR version: 'True'", "1:10-1:13")],
      model: false,
    },
    {
      name: "integer version",
      text: yaml("version: 1"),
      expect: [unknown("Unknown IR version: '1'", "1:10-1:11")],
      model: false,
    },
    {
      name: "sequence version: str() is its repr",
      text: yaml("version: [0.2]"),
      expect: [unknown("Unknown IR version: '[0.2]'", "1:10-1:15")],
      model: false,
    },
    {
      name: "date version: str() is the ISO date",
      text: yaml("version: 2024-01-01"),
      expect: [unknown("Unknown IR version: '2024-01-01'", "1:10-1:20")],
      model: false,
    },
    {
      name: "timestamp version: str() of a datetime with offset",
      text: yaml("version: 2001-12-14 21:59:43.10 -5"),
      expect: [unknown("Unknown IR version: '2001-12-14 21:59:43.100000-05:00'", "1:10-1:35")],
      model: false,
    },
    {
      name: "version below its key",
      text: yaml("version:", '  "1.1"'),
      expect: [unknown("Unknown IR version: '1.1'", "1:1-2:8")],
      model: false,
    },
    {
      name: "version 0.3 (quoted) selects the 0.3 schema: its step keys are known",
      text: yaml(
        'version: "0.3"',
        "flows:",
        "  f:",
        "    input: {}",
        "    steps: [{id: d, type: decompose, isolation: none, require: 2.0, task_timeout: null}]",
      ),
      expect: [],
    },
    {
      name: "version 0.3 unquoted: str(0.3) is '0.3', a float (SCHEMA-TYPE with the quoting fix)",
      text: yaml("version: 0.3"),
      expect: [
        {
          code: "SCHEMA-TYPE",
          path: "version",
          message: "0.3 is not of type 'string'",
          suggestion: 'Quote the version: version: "0.3"',
          at: "1:10-1:13",
          fix: [{ at: "1:10-1:13", text: '"0.3"' }],
        },
      ],
    },
    {
      name: "unquoted 0.2 is a float: SCHEMA-TYPE with a quoting fix, the 0.2 schema still applies",
      text: yaml("version: 0.2", "workflow: {name: wf, description: d, input: {}}", "bogus: 1"),
      expect: [
        {
          code: "SCHEMA-TYPE",
          path: "version",
          message: "0.2 is not of type 'string'",
          suggestion: 'Quote the version: version: "0.2"',
          at: "1:10-1:13",
          fix: [{ at: "1:10-1:13", text: '"0.2"' }],
        },
        {
          code: "SCHEMA-UNKNOWN-KEY",
          path: "root",
          message: "Additional properties are not allowed ('bogus' was unexpected)",
          suggestion: "Remove unrecognised fields",
          at: "3:1-3:6",
        },
      ],
    },
    {
      name: "unquoted 0.10 loads as 0.1",
      text: yaml("version: 0.10"),
      expect: [
        {
          code: "SCHEMA-TYPE",
          path: "version",
          message: "0.1 is not of type 'string'",
          suggestion: 'Quote the version: version: "0.1"',
          at: "1:10-1:14",
          fix: [{ at: "1:10-1:14", text: '"0.1"' }],
        },
      ],
    },
    {
      name: "tagged float version: no fix (quoting would keep the tag)",
      text: yaml("version: !!float 0.2"),
      expect: [
        {
          code: "SCHEMA-TYPE",
          path: "version",
          message: "0.2 is not of type 'string'",
          suggestion: 'Quote the version: version: "0.2"',
          at: "1:18-1:21",
        },
      ],
    },
    {
      name: "a sequence document",
      text: yaml("- a", "- b"),
      expect: [
        {
          code: "SCHEMA-ROOT-NOT-MAPPING",
          path: "root",
          message: "['a', 'b'] is not of type 'object'",
          suggestion: "A spec is a YAML mapping that starts with a version key",
          at: "1:1-2:4",
        },
      ],
      model: false,
    },
    {
      name: "a scalar document",
      text: yaml("5"),
      expect: [
        {
          code: "SCHEMA-ROOT-NOT-MAPPING",
          path: "root",
          message: "5 is not of type 'object'",
          suggestion: "A spec is a YAML mapping that starts with a version key",
          at: "1:1-1:2",
        },
      ],
      model: false,
    },
    {
      name: "a comment-only document is an empty mapping",
      text: yaml("# nothing"),
      expect: [
        {
          ...unknown("Unknown IR version: ''", "1:1-1:1"),
          suggestion: 'Add version: "0.3" as the first line of the file',
        },
      ],
      model: false,
    },
    { name: "a minimal valid 0.1 document", text: yaml('version: "0.1"'), expect: [] },
    { name: "a minimal valid 0.2 document", text: yaml('version: "0.2"'), expect: [] },
  ]);
});

describe("SCHEMA-KEY-NOT-STRING", () => {
  const keyNotString = (message: string, path: string, at: string): Shown => ({
    code: "SCHEMA-KEY-NOT-STRING",
    path,
    message,
    suggestion: "Quote the key",
    at,
  });
  run([
    {
      name: "an integer key at the root (no unknown-key diagnostic as well)",
      text: yaml('version: "0.2"', "1: x"),
      expect: [keyNotString("1 is not of type 'string'", "root", "2:1-2:2")],
    },
    {
      name: "YAML 1.1 `on` as a step input name",
      text: step02("      - id: a", "        intent: x", "        inputs: {on: $.input.x}"),
      expect: [keyNotString("True is not of type 'string'", "flows.f.steps.0.inputs", "8:18-8:20")],
    },
    {
      name: "a null key inside a free-form output_schema",
      text: step02(
        "      - id: a",
        "        intent: x",
        "        output_schema:",
        "          properties:",
        "            ~: {}",
      ),
      expect: [
        keyNotString(
          "None is not of type 'string'",
          "flows.f.steps.0.output_schema.properties",
          "10:13-10:14",
        ),
      ],
    },
    {
      name: "a boolean contract name",
      text: yaml('version: "0.2"', "contracts:", "  yes: {v: {type: string}}"),
      expect: [keyNotString("True is not of type 'string'", "contracts", "3:3-3:6")],
    },
    {
      name: "quoted keys are strings",
      text: step02("      - id: a", "        intent: x", '        inputs: {"on": $.input.x, "1": y}'),
      expect: [],
    },
  ]);
});

describe("SCHEMA-REQUIRED", () => {
  const required = (key: string, _list: string, path: string, at: string, message?: string): Shown => ({
    code: "SCHEMA-REQUIRED",
    path,
    message: message ?? `'${key}' is a required property`,
    // Only the missing keys, each with a value to write (exact texts in help.test.ts).
    suggestion: expect.stringMatching(new RegExp(`^Add (.* and )?${key}: `)),
    at,
  });
  run([
    {
      name: "a flow-style step without id: anchored at its first key",
      text: step02("      - {intent: x}"),
      expect: [required("id", "['id']", "flows.f.steps.0", "6:10-6:16")],
    },
    {
      name: "a block step whose first key is below the dash: anchored at the dash",
      text: step02("      -", "        intent: x"),
      expect: [required("id", "['id']", "flows.f.steps.0", "6:7-6:8")],
    },
    {
      name: "a second step without id",
      text: step02("      - id: a", "        intent: x", "      - intent: y"),
      expect: [required("id", "['id']", "flows.f.steps.1", "8:9-8:15")],
    },
    {
      name: "a flow without input and steps: one diagnostic per key, at the flow's key",
      text: yaml('version: "0.2"', "flows:", "  f:", "    output: O"),
      expect: [
        required("input", "['input', 'steps']", "flows.f", "3:3-3:4"),
        required("steps", "['input', 'steps']", "flows.f", "3:3-3:4"),
      ],
    },
    {
      name: "a 0.1 flow also requires output",
      text: yaml('version: "0.1"', "flows:", "  f: {input: {}, steps: [{id: a, function: w, inputs: {}}]}"),
      expect: [required("output", "['input', 'output', 'steps']", "flows.f", "3:3-3:4")],
    },
    {
      name: "a 0.1 step requires id, function and inputs",
      text: yaml(
        'version: "0.1"',
        "flows:",
        "  f:",
        "    input: {}",
        "    output: O",
        "    steps:",
        "      - id: a",
      ),
      expect: [
        required("function", "['id', 'function', 'inputs']", "flows.f.steps.0", "7:9-7:11"),
        required("inputs", "['id', 'function', 'inputs']", "flows.f.steps.0", "7:9-7:11"),
      ],
    },
    {
      name: "a 0.2 infer function without output keeps the reference's message",
      text: yaml('version: "0.2"', "functions:", "  work: {mode: infer}"),
      expect: [
        required(
          "output",
          "['mode', 'output']",
          "functions.work",
          "3:3-3:7",
          "Function 'work' output contract '' not defined",
        ),
      ],
    },
    {
      name: "a 0.2 gate function needs only mode",
      text: yaml('version: "0.2"', "functions:", "  g: {mode: gate}"),
      expect: [],
    },
    {
      name: "a 0.2 function without mode",
      text: yaml('version: "0.2"', "functions:", "  w:", "    intent: x"),
      expect: [required("mode", "['mode']", "functions.w", "3:3-3:4")],
    },
    {
      name: "an invalid mode does not require output",
      text: yaml('version: "0.2"', "functions:", "  w: {mode: think}"),
      expect: [
        {
          code: "SCHEMA-ENUM",
          path: "functions.w.mode",
          message: "'think' is not one of ['infer', 'compute', 'gate']",
          suggestion: "Allowed values: ['infer', 'compute', 'gate']",
          at: "3:13-3:18",
        },
      ],
    },
    {
      name: "a 0.1 function requires mode, intent, input and output",
      text: yaml('version: "0.1"', "functions:", "  w: {mode: infer, output: O}"),
      expect: [
        required("intent", "['mode', 'intent', 'input', 'output']", "functions.w", "3:3-3:4"),
        required("input", "['mode', 'intent', 'input', 'output']", "functions.w", "3:3-3:4"),
      ],
    },
    {
      name: "a contract field without type",
      text: yaml('version: "0.2"', "contracts: {Out: {v: {description: x}}}"),
      expect: [required("type", "['type']", "contracts.Out.v", "2:19-2:20")],
    },
    {
      name: "an items definition without type",
      text: yaml('version: "0.2"', "contracts:", "  Out:", "    v:", "      type: array", "      items: {}"),
      expect: [required("type", "['type']", "contracts.Out.v.items", "6:7-6:12")],
    },
    {
      name: "a workflow without description",
      text: yaml('version: "0.2"', "workflow:", "  name: wf", "  input: {}"),
      expect: [required("description", "['name', 'description', 'input']", "workflow", "2:1-2:9")],
    },
    {
      name: "a workflow input without type",
      text: yaml(
        'version: "0.2"',
        "workflow:",
        "  name: wf",
        "  description: d",
        "  input:",
        "    since: {required: true}",
      ),
      expect: [required("type", "['type']", "workflow.input.since", "6:5-6:10")],
    },
  ]);
});

describe("SCHEMA-UNKNOWN-KEY", () => {
  const unknownKey = (
    key: string,
    path: string,
    at: string,
    suggestion: string,
    fix?: Shown["fix"],
  ): Shown => ({
    code: "SCHEMA-UNKNOWN-KEY",
    path,
    message: `Additional properties are not allowed ('${key}' was unexpected)`,
    suggestion,
    at,
    ...(fix !== undefined ? { fix } : {}),
  });
  run([
    {
      name: "an unknown top-level key",
      text: yaml('version: "0.2"', "bogus: 1"),
      expect: [unknownKey("bogus", "root", "2:1-2:6", "Remove unrecognised fields")],
    },
    {
      name: "a misspelt step key: did-you-mean with a rename fix",
      text: step02("      - id: a", "        intent: x", "        depend_on: [a]"),
      expect: [
        unknownKey("depend_on", "flows.f.steps.0", "8:9-8:18", "Did you mean 'depends_on'?", [
          { at: "8:9-8:18", text: "depends_on" },
        ]),
      ],
    },
    {
      name: "no rename fix when the suggested key is already present",
      text: step02("      - id: a", "        intent: x", "        depends_on: []", "        depend_on: [a]"),
      expect: [unknownKey("depend_on", "flows.f.steps.0", "9:9-9:18", "Did you mean 'depends_on'?")],
    },
    {
      name: "no rename fix when another key is also within the distance limit (on_fail)",
      text: step02("      - id: a", "        intent: x", "        on_kil: x"),
      expect: [unknownKey("on_kil", "flows.f.steps.0", "8:9-8:15", "Did you mean 'on_kill'?")],
    },
    {
      name: "several unknown keys: one diagnostic each",
      text: yaml('version: "0.2"', "functions:", "  w: {mode: gate, temperature: 0.1, top_p: 1}"),
      expect: [
        unknownKey("temperature", "functions.w", "3:19-3:30", "Remove unrecognised fields"),
        unknownKey("top_p", "functions.w", "3:37-3:42", "Remove unrecognised fields"),
      ],
    },
    {
      name: "a 0.2-only step key in a 0.1 document",
      text: yaml(
        'version: "0.1"',
        "flows:",
        "  f:",
        "    input: {}",
        "    output: O",
        "    steps:",
        "      - {id: a, function: w, inputs: {}, skip_if: x}",
      ),
      expect: [unknownKey("skip_if", "flows.f.steps.0", "7:42-7:49", `'skip_if' requires version "0.2"`)],
    },
    {
      name: "the workflow block in a 0.1 document",
      text: yaml('version: "0.1"', "workflow: {name: x, description: y, input: {}}"),
      expect: [unknownKey("workflow", "root", "2:1-2:9", `'workflow' requires version "0.2"`)],
    },
    {
      name: "a 0.2-only function key in a 0.1 document",
      text: yaml(
        'version: "0.1"',
        "functions:",
        "  w: {mode: infer, intent: x, input: {}, output: O, timeout: 5}",
      ),
      expect: [unknownKey("timeout", "functions.w", "3:53-3:60", `'timeout' requires version "0.2"`)],
    },
    {
      name: "a 0.3 step key (type) in a 0.2 document is unknown, with the version that has it",
      text: step02("      - {id: a, intent: x, type: inline}"),
      expect: [unknownKey("type", "flows.f.steps.0", "6:28-6:32", `'type' requires version "0.3"`)],
    },
    {
      name: "a 0.3 key close to a 0.2 key is not taken for a typo of it (require is not retries)",
      text: step02("      - {id: a, intent: x, require: any}"),
      expect: [unknownKey("require", "flows.f.steps.0", "6:28-6:35", `'require' requires version "0.3"`)],
    },
    {
      name: "a 0.3 step key of 0.2.69 (pre_merge_verify) in a 0.2 document names the version it needs",
      text: step02("      - {id: a, intent: x, pre_merge_verify: []}"),
      expect: [
        unknownKey(
          "pre_merge_verify",
          "flows.f.steps.0",
          "6:28-6:44",
          `'pre_merge_verify' requires version "0.3"`,
        ),
      ],
    },
    {
      name: "an unknown budget key",
      text: step02("      - {id: a, intent: x, budget: {ms: 5, sec: 1}}"),
      expect: [unknownKey("sec", "flows.f.steps.0.budget", "6:44-6:47", "Remove unrecognised fields")],
    },
    {
      name: "a `__proto__` key is an ordinary unknown key",
      text: yaml('version: "0.2"', "__proto__: {polluted: true}"),
      expect: [unknownKey("__proto__", "root", "2:1-2:10", "Remove unrecognised fields")],
    },
    {
      name: "other keys of a contract field definition and of a workflow input are allowed",
      text: yaml(
        'version: "0.2"',
        "contracts: {Out: {v: {type: string, doc: x}}}",
        "workflow: {name: wf, description: d, input: {since: {type: string, label: Since}}}",
        "flows: {wf: {input: {since: {}}, steps: [{id: a, intent: x}]}}",
      ),
      expect: [],
    },
  ]);
});

describe("the extension keys of reference 0.2.69 are schema keys", () => {
  run([
    {
      name: "on a step",
      text: step02(
        "      - id: a",
        "        intent: x",
        "        reasoning_template: {}",
        "        guardrails: [x]",
        "        cache: true",
        "        max_iterations: 3",
        '        score_expr: "1"',
      ),
      expect: [],
    },
    {
      // The run budget axes of 0.2.69 are keys of every version's budget.
      name: "budget run axes",
      text: yaml(
        'version: "0.2"',
        "flows:",
        "  f:",
        "    input: {}",
        "    budget: {ms: 1000, max_agent_dispatches: 3, max_tokens: 50}",
        "    steps: [{id: a, intent: x}]",
      ),
      expect: [],
    },
    {
      name: "on a function",
      text: yaml('version: "0.2"', "functions:", "  g: {mode: gate, guardrails: [x], cache: true}"),
      expect: [],
    },
  ]);
});

describe("SCHEMA-TYPE", () => {
  const type = (message: string, path: string, at: string): Shown => ({
    code: "SCHEMA-TYPE",
    path,
    message,
    suggestion: DEFAULT,
    at,
  });
  run([
    {
      name: "a quoted integer",
      text: yaml(
        'version: "0.2"',
        "flows:",
        "  f:",
        "    input: {}",
        '    max_rounds: "3"',
        "    steps: [{id: a, intent: x}]",
      ),
      expect: [type("'3' is not of type 'integer'", "flows.f.max_rounds", "5:17-5:20")],
    },
    {
      name: "next: null (a step id, not nullable)",
      text: step02("      - id: a", "        intent: x", "        next: ~"),
      expect: [type("None is not of type 'string'", "flows.f.steps.0.next", "8:15-8:16")],
    },
    {
      name: "an empty value points at its key",
      text: step02("      - id: a", "        intent: x", "        next:"),
      expect: [type("None is not of type 'string'", "flows.f.steps.0.next", "8:9-8:13")],
    },
    {
      name: "a nullable route with a number",
      text: step02("      - {id: a, function: g, on_approve: 5, on_kill: null, on_revise: ~}"),
      expect: [type("5 is not of type 'string', 'null'", "flows.f.steps.0.on_approve", "6:42-6:43")],
    },
    {
      name: "steps given as a block mapping: the range starts at the key",
      text: step02("      a: {intent: x}"),
      expect: [type("{'a': {'intent': 'x'}} is not of type 'array'", "flows.f.steps", "5:5-6:21")],
    },
    {
      name: "a step item that is not a mapping (on a later line than `steps:`, so from the key)",
      text: step02("      - a", "      - {id: b, intent: x}"),
      expect: [type("'a' is not of type 'object'", "flows.f.steps.0", "5:5-6:10")],
    },
    {
      name: "a string ensure",
      text: step02("      - id: a", "        intent: x", '        ensure: "result.ok"'),
      expect: [type("'result.ok' is not of type 'array'", "flows.f.steps.0.ensure", "8:17-8:28")],
    },
    {
      name: "a non-string ensure item: path by index",
      text: step02("      - id: a", "        intent: x", "        ensure: [result.ok, 1]"),
      expect: [type("1 is not of type 'string'", "flows.f.steps.0.ensure.1", "8:29-8:30")],
    },
    {
      name: "a block sequence item below its key starts at the key",
      text: step02("      - id: a", "        intent: x", "        depends_on:", "          - 1"),
      expect: [type("1 is not of type 'string'", "flows.f.steps.0.depends_on.0", "8:9-9:14")],
    },
    {
      name: "a non-string input value",
      text: step02("      - {id: a, intent: x, inputs: {n: 5}}"),
      expect: [type("5 is not of type 'string'", "flows.f.steps.0.inputs.n", "6:40-6:41")],
    },
    {
      name: "inputs given as a list",
      text: step02("      - id: a", "        intent: x", "        inputs: [a, b]"),
      expect: [type("['a', 'b'] is not of type 'object'", "flows.f.steps.0.inputs", "8:17-8:23")],
    },
    {
      name: "YAML 1.1 booleans are booleans: retries: yes, usd: on",
      text: step02("      - {id: a, intent: x, retries: yes, budget: {usd: on}}"),
      expect: [
        type("True is not of type 'integer'", "flows.f.steps.0.retries", "6:37-6:40"),
        type("True is not of type 'number'", "flows.f.steps.0.budget.usd", "6:56-6:58"),
      ],
    },
    {
      name: "a quoted boolean",
      text: yaml('version: "0.2"', 'contracts: {Out: {v: {type: string, required: "no"}}}'),
      expect: [type("'no' is not of type 'boolean'", "contracts.Out.v.required", "2:47-2:51")],
    },
    {
      name: "a non-integral float is not an integer",
      text: step02("      - {id: a, intent: x, max_iterations: 2.5}"),
      expect: [type("2.5 is not of type 'integer'", "flows.f.steps.0.max_iterations", "6:44-6:47")],
    },
    {
      name: "a contract that is not a mapping",
      text: yaml('version: "0.2"', "contracts: {Out: 5}"),
      expect: [type("5 is not of type 'object'", "contracts.Out", "2:18-2:19")],
    },
    {
      name: "a section that is null",
      text: yaml('version: "0.2"', "functions:"),
      expect: [type("None is not of type 'object'", "functions", "2:1-2:10")],
    },
    {
      name: "a date is never valid",
      text: step02("      - {id: a, intent: x, model: 2024-01-01}"),
      expect: [
        type("datetime.date(2024, 1, 1) is not of type 'string'", "flows.f.steps.0.model", "6:35-6:45"),
      ],
    },
    {
      name: "contract values given as a string",
      text: yaml('version: "0.2"', "contracts:", "  Out:", "    status: {type: string, values: ok}"),
      expect: [type("'ok' is not of type 'array'", "contracts.Out.status.values", "4:36-4:38")],
    },
    {
      name: "a flow input given as a list",
      text: yaml('version: "0.2"', "flows:", "  f:", "    input: [a]", "    steps: [{id: a, intent: x}]"),
      expect: [type("['a'] is not of type 'object'", "flows.f.input", "4:12-4:15")],
    },
    {
      name: "only SCHEMA-TYPE for a wrong-kind value with other constraints (at most one per node)",
      text: yaml('version: "0.2"', "functions:", "  w: {mode: 5, intent: 7, input: {}, output: O}"),
      expect: [
        type("5 is not of type 'string'", "functions.w.mode", "3:13-3:14"),
        type("7 is not of type 'string'", "functions.w.intent", "3:24-3:25"),
      ],
    },
  ]);
});

describe("SCHEMA-ENUM, SCHEMA-MINIMUM, SCHEMA-NON-EMPTY, SCHEMA-PATTERN", () => {
  const value = (code: string, message: string, path: string, at: string, suggestion = DEFAULT): Shown => ({
    code,
    path,
    message,
    suggestion,
    at,
  });
  run([
    {
      name: "a 0.1 gate mode",
      text: yaml('version: "0.1"', "functions:", "  g: {mode: gate, intent: x, input: {}, output: O}"),
      expect: [
        value(
          "SCHEMA-ENUM",
          "'gate' is not one of ['infer', 'compute']",
          "functions.g.mode",
          "3:13-3:17",
          "Allowed values: ['infer', 'compute']",
        ),
      ],
    },
    {
      name: "a gate policy",
      text: step02("      - {id: r, function: g, policy: auto, policy_fallback: flag}"),
      expect: [
        value(
          "SCHEMA-ENUM",
          "'auto' is not one of ['gate', 'flag', 'skip']",
          "flows.f.steps.0.policy",
          "6:38-6:42",
          "Allowed values: ['gate', 'flag', 'skip']",
        ),
      ],
    },
    {
      name: "a workflow input type",
      text: yaml('version: "0.2"', "workflow: {name: wf, description: d, input: {a: {type: str}}}"),
      expect: [
        value(
          "SCHEMA-ENUM",
          "'str' is not one of ['string', 'boolean', 'integer', 'number', 'array', 'object']",
          "workflow.input.a.type",
          "2:56-2:59",
          "Allowed values: ['string', 'boolean', 'integer', 'number', 'array', 'object']",
        ),
      ],
    },
    {
      name: "retries 0",
      text: yaml('version: "0.2"', "functions:", "  w: {mode: infer, output: O, retries: 0}"),
      expect: [
        value("SCHEMA-MINIMUM", "0 is less than the minimum of 1", "functions.w.retries", "3:40-3:41"),
      ],
    },
    {
      name: "an integral float below the minimum keeps its repr",
      text: yaml('version: "0.2"', "functions:", "  g: {mode: gate, timeout: 0.0}"),
      expect: [
        value("SCHEMA-MINIMUM", "0.0 is less than the minimum of 1", "functions.g.timeout", "3:28-3:31"),
      ],
    },
    {
      name: "a negative usd",
      text: step02("      - {id: a, intent: x, budget: {ms: 1, usd: -1}}"),
      expect: [
        value(
          "SCHEMA-MINIMUM",
          "-1 is less than the minimum of 0",
          "flows.f.steps.0.budget.usd",
          "6:49-6:51",
        ),
      ],
    },
    {
      name: "budget ms 0 in a block mapping below the key",
      text: yaml(
        'version: "0.2"',
        "functions:",
        "  w:",
        "    mode: infer",
        "    output: O",
        "    budget:",
        "      ms:",
        "        0",
      ),
      expect: [
        value("SCHEMA-MINIMUM", "0 is less than the minimum of 1", "functions.w.budget.ms", "7:7-8:10"),
      ],
    },
    {
      name: "integral floats, zero usd and huge integers are valid",
      text: step02(
        "      - {id: a, intent: x, retries: 2.0, max_iterations: 99999999999999999999, budget: {usd: 0, ms: 1.0}}",
      ),
      expect: [],
    },
    {
      name: "an empty steps list",
      text: step02("      []").replace("    steps:\n      []", "    steps: []"),
      expect: [value("SCHEMA-NON-EMPTY", "[] should be non-empty", "flows.f.steps", "5:12-5:14")],
    },
    {
      name: "an empty function intent",
      text: yaml('version: "0.2"', "functions:", '  w: {mode: infer, intent: "", output: O}'),
      expect: [value("SCHEMA-NON-EMPTY", "'' should be non-empty", "functions.w.intent", "3:28-3:30")],
    },
    {
      name: "an empty workflow description",
      text: yaml('version: "0.2"', 'workflow: {name: wf, description: "", input: {}}'),
      expect: [value("SCHEMA-NON-EMPTY", "'' should be non-empty", "workflow.description", "2:35-2:37")],
    },
    {
      name: "an empty step intent is structurally fine (it counts as absent for the step kind)",
      text: step02('      - {id: a, intent: ""}'),
      expect: [],
    },
    {
      name: "a workflow name with capitals",
      text: yaml('version: "0.2"', "workflow: {name: My_WF, description: d, input: {}}"),
      expect: [
        value("SCHEMA-PATTERN", "'My_WF' does not match '^[a-z][a-z0-9-]*$'", "workflow.name", "2:18-2:23"),
      ],
    },
    {
      name: "a workflow name with a trailing newline matches, as with Python's re.search",
      text: yaml('version: "0.2"', "workflow:", "  name: |", "    wf", "  description: d", "  input: {}"),
      expect: [],
    },
  ]);
});

describe("a complete valid spec", () => {
  run([
    {
      name: "every 0.2 key",
      text: yaml(
        'version: "0.2"',
        "contracts:",
        "  Out:",
        "    v: {type: string, values: [a, b], required: true, description: d}",
        "    xs: {type: array, items: {type: Out}}",
        "functions:",
        "  work: {mode: infer, intent: x, input: {}, output: Out, ensure: [result.v], retries: 2, budget: {ms: 5, usd: 0.5}, model: m}",
        "  g: {mode: gate, timeout: 60}",
        "workflow: {name: wf, description: d, input: {topic: {type: string, required: true, default: x}}}",
        "flows:",
        "  wf:",
        "    input: {topic: {type: string}}",
        "    output: Out",
        "    budget: {ms: 10}",
        "    max_rounds: 2",
        "    steps:",
        "      - {id: a, function: work, inputs: {t: $.input.topic}, depends_on: [], output_schema: {type: object}, agent: x}",
        "      - {id: r, function: g, on_approve: null, on_kill: ~, on_revise: a, policy: gate, policy_fallback: skip, skip_if: 'False', skip_reason: s}",
        "      - {id: c, intent: x, ensure: [result.v], retries: 1, output_contract: Out, model: m, budget: {ms: 1}, max_iterations: 3, exit_criterion: 'True', accumulate: '[1]', accumulate_key: item, on_fail: a, next: d}",
        "      - {id: d, flow: sub}",
        "  sub:",
        "    input: {}",
        "    steps: [{id: s, intent: x}]",
      ),
      expect: [],
    },
  ]);
});
