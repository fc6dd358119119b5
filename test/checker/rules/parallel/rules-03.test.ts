// The semantic rules of decompose and parallel_dispatch steps (the research notes on the reference,
// sections 2.2 and 1.5): the reference's messages and paths, and which 0.2 rules still apply to the
// new kinds.
import { describe, expect, it } from "vitest";
import { check, parallel, shown, spec03 } from "./support";

const S = "flows.f.steps";

describe("decompose steps (D1–D5)", () => {
  it("D1–D3: agent, intent and output_contract are required (missing or empty)", () => {
    const text = spec03().replace("        agent: claude\n", "").replace("intent: Plan", 'intent: ""');
    const noContract = text.replace("        output_contract: TaskGraph\n", "");
    expect(shown(noContract)).toEqual([
      `SPEC-DECOMPOSE-MISSING-KEY ${S}.plan.agent: Decompose step 'plan' must have 'agent'`,
      `SPEC-DECOMPOSE-MISSING-KEY ${S}.plan.output_contract: Decompose step 'plan' must have 'output_contract'`,
      `SPEC-DECOMPOSE-MISSING-KEY ${S}.plan.intent: Decompose step 'plan' must have 'intent'`,
    ]);
  });

  it("D4–D5: parallel keys on a decompose step (intent_template unquoted, the others quoted)", () => {
    const text = spec03().replace(
      "        output_contract: TaskGraph\n",
      '        output_contract: TaskGraph\n        intent_template: "x"\n        source: $.input.tasks\n        task_timeout: null\n',
    );
    expect(shown(text)).toEqual([
      `SPEC-PARALLEL-ONLY-KEY ${S}.plan.intent_template: Step 'plan' has intent_template but is not a parallel_dispatch step`,
      `SPEC-PARALLEL-ONLY-KEY ${S}.plan.source: Step 'plan' has 'source' but is not a parallel_dispatch step`,
    ]);
  });

  it("an empty intent_template on a decompose step passes (the reference tests it for non-empty)", () => {
    const text = spec03().replace("intent: Plan", 'intent: Plan\n        intent_template: ""');
    expect(shown(text)).toEqual([]);
  });
});

describe("parallel_dispatch steps (P1–P3)", () => {
  it("P1–P2: source and intent_template are required", () => {
    const text = spec03("- {id: run, type: parallel_dispatch, source: '', depends_on: [plan]}");
    expect(shown(text)).toEqual([
      `SPEC-PARALLEL-MISSING-KEY ${S}.run.intent_template: parallel_dispatch step 'run' must have 'intent_template'`,
      `SPEC-PARALLEL-MISSING-KEY ${S}.run.source: parallel_dispatch step 'run' must have 'source'`,
    ]);
  });

  it("P3: reasoning_template is refused with the reference's text", () => {
    expect(shown(parallel("reasoning_template: {require_citations: true}"))).toEqual([
      `SPEC-PARALLEL-REASONING-TEMPLATE ${S}.run.reasoning_template: Step 'run' in flow 'f' has 'reasoning_template' which is not valid on parallel_dispatch steps. Use 'task_reasoning_template' for per-task cert validation, or move the template to an inline/decompose step.`,
    ]);
  });

  it("C1: an unknown depends_on entry keeps the 0.2 text", () => {
    expect(shown(parallel().replace("depends_on: [plan]", "depends_on: [plan, nope]"))).toEqual([
      `SPEC-DEPENDS-ON-UNKNOWN ${S}.run.depends_on: Step 'run' depends_on unknown step 'nope'`,
    ]);
  });

  it("C3: accumulate is refused on both kinds", () => {
    expect(shown(parallel("accumulate: result.tasks"))).toEqual([
      `SPEC-PARALLEL-UNSUPPORTED-KEY ${S}.run.accumulate: Step 'run' has accumulate/accumulate_key but is a parallel_dispatch step — accumulate is not supported on parallel_dispatch steps`,
    ]);
  });
});

describe("the parallel-only ban on 0.2 step kinds", () => {
  it("reports every given key (null counts as absent), intent_template quoted", () => {
    const text = spec03(
      "- id: other",
      "  intent: x",
      "  intent_template: t",
      "  max_concurrent: 2",
      "  merge: manual",
      "  task_timeout: null",
    );
    expect(shown(text)).toEqual([
      `SPEC-PARALLEL-ONLY-KEY ${S}.other.intent_template: Step 'other' has 'intent_template' but is not a parallel_dispatch step`,
      `SPEC-PARALLEL-ONLY-KEY ${S}.other.max_concurrent: Step 'other' has 'max_concurrent' but is not a parallel_dispatch step`,
      `SPEC-PARALLEL-ONLY-KEY ${S}.other.merge: Step 'other' has 'merge' but is not a parallel_dispatch step`,
    ]);
  });

  it("task_reasoning_template is a known key of 0.2 steps, refused on them (no longer unsupported)", () => {
    const text = [
      'version: "0.2"',
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      "      - {id: a, intent: x, task_reasoning_template: {}}",
      "",
    ].join("\n");
    expect(shown(text)).toEqual([
      `SPEC-PARALLEL-ONLY-KEY ${S}.a.task_reasoning_template: Step 'a' has 'task_reasoning_template' but is not a parallel_dispatch step`,
    ]);
  });
});

describe("task_reasoning_template sections (checked while the reference builds the IR)", () => {
  const T = `${S}.run.task_reasoning_template.sections`;
  it.each([
    ["{sections: []}", [`${T}: task_reasoning_template must have at least one section`]],
    ["{sections: [plain]}", [`${T}.0: task_reasoning_template section 0 must be a mapping, got str`]],
    [
      "{sections: [{id: p, label: P}, 5]}",
      [
        `${T}.0: task_reasoning_template section 0 is missing required field 'description'`,
        `${T}.1: task_reasoning_template section 1 must be a mapping, got int`,
      ],
    ],
  ])("%s", (template, expected) => {
    const got = check(parallel(`task_reasoning_template: ${template}`)).diagnostics.map(
      (d) => `${d.path}: ${d.message}`,
    );
    expect(got).toEqual(expected);
  });

  it("without sections the reference's defaults apply", () => {
    const ir = check(parallel("task_reasoning_template: {}")).ir;
    const template = ir?.flows.get("f")?.stepById.get("run")?.parallel?.taskReasoningTemplate;
    expect(template?.sections.map((s) => s.id)).toEqual(["premises", "trace", "conclusion"]);
    expect(template?.requireCitations).toBe(false);
  });
});

describe("0.2 rules on the new kinds", () => {
  it("unknown on_fail / next targets stay errors (they fail at run time)", () => {
    const got = shown(parallel("on_fail: nowhere", "next: nope"));
    expect(got).toEqual([
      `SPEC-ROUTE-UNKNOWN-STEP ${S}.run.on_fail: Step 'run' on_fail references unknown step 'nowhere'`,
      `SPEC-ROUTE-UNKNOWN-STEP ${S}.run.next: Step 'run' next references unknown step 'nope'`,
    ]);
  });

  it("what the reference accepts is at most a warning: selectors, gate keys, on_fail without ensure", () => {
    const result = check(
      parallel(
        "function: missing_fn",
        "flow: missing_flow",
        "intent: x",
        "policy: flag",
        "on_approve: nowhere",
        "on_fail: plan",
      ),
    );
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((d) => `${d.code} ${d.path}`)).toEqual([
      `SPEC-STEP-KIND-IGNORED-KEY ${S}.run.function`,
      `SPEC-STEP-KIND-IGNORED-KEY ${S}.run.flow`,
      `SPEC-STEP-KIND-IGNORED-KEY ${S}.run.intent`,
      `SPEC-STEP-KIND-IGNORED-KEY ${S}.run.policy`,
      `SPEC-STEP-KIND-IGNORED-KEY ${S}.run.on_approve`,
    ]);
  });

  it("exit_criterion and max_iterations are accepted on the new kinds", () => {
    expect(check(parallel("exit_criterion: 'True'")).errors).toEqual([]);
  });
});

describe("warnings for what the reference does not check", () => {
  it("capture_diff / defer_advance on another step, capture_diff without a worktree", () => {
    const text = parallel("isolation: none", "capture_diff: true").replace(
      "intent: Plan",
      "intent: Plan\n        defer_advance: true",
    );
    expect(shown(text)).toEqual([
      `SPEC-PARALLEL-KEY-IGNORED ${S}.plan.defer_advance: Step 'plan' has 'defer_advance' but is not a parallel_dispatch step; it is ignored`,
      `SPEC-PARALLEL-KEY-IGNORED ${S}.run.capture_diff: Step 'run' has capture_diff but isolation is 'none'; diffs are captured only from worktrees`,
    ]);
  });

  it("type: function | inline | flow contradicting the fields", () => {
    const text = spec03("- {id: x, type: flow, intent: Do it}", "- {id: y, type: inline, intent: Do it}");
    expect(shown(text)).toEqual([
      `SPEC-STEP-TYPE-MISMATCH ${S}.x.type: Step 'x' has type 'flow' but is a inline step (the kind follows function, intent or flow)`,
    ]);
  });

  it("type: inline with function and intent is the ordinary mode error", () => {
    const text = spec03("- {id: x, type: inline, intent: a, function: b}");
    expect(shown(text)).toEqual([
      `SPEC-STEP-MODE ${S}.x: Step 'x' must have exactly one of function, intent, flow, or judge`,
    ]);
  });
});

describe("source", () => {
  it("a literal is an error (the task list would be a string)", () => {
    const text = parallel().replace('"$.steps.plan.output.tasks"', "tasks");
    expect(shown(text)).toEqual([
      `SPEC-PARALLEL-SOURCE-NOT-REFERENCE ${S}.run.source: parallel_dispatch step 'run' has source 'tasks', which is not a $ reference: the task list would be that text`,
    ]);
  });

  it("must name an existing step or declared input, with the input rules' texts", () => {
    expect(shown(parallel().replace("$.steps.plan.output.tasks", "$.steps.plam.output.tasks"))).toEqual([
      `SPEC-REF-UNKNOWN-STEP ${S}.run.source: Reference '$.steps.plam.output.tasks' names unknown step 'plam' in flow 'f'`,
    ]);
    expect(shown(parallel().replace("$.steps.plan.output.tasks", "$.input.task"))[0]).toMatch(
      /^SPEC-REF-UNDECLARED-INPUT flows\.f\.steps\.run\.source: /,
    );
    expect(shown(parallel().replace("$.steps.plan.output.tasks", "$.steps.plan"))[0]).toMatch(
      /^SPEC-REF-MALFORMED flows\.f\.steps\.run\.source: /,
    );
  });

  it("a known type that is not a list is an error; any and lists pass", () => {
    expect(shown(parallel().replace("$.steps.plan.output.tasks", "$.steps.plan.output"))).toEqual([
      `SPEC-PARALLEL-SOURCE-NOT-LIST ${S}.run.source: parallel_dispatch step 'run' has source '$.steps.plan.output' of type TaskGraph | none, not a list of tasks`,
    ]);
    expect(shown(parallel().replace("$.steps.plan.output.tasks", "$.input.tasks"))).toEqual([]);
  });

  it("adds an ordering edge: the parallel step runs after its source step without depends_on", () => {
    const text = spec03(
      "- id: run",
      "  type: parallel_dispatch",
      '  source: "$.steps.late.output.tasks"',
      '  intent_template: "Do {task.id}"',
      "- {id: late, type: decompose, agent: claude, intent: Plan, output_contract: TaskGraph}",
    );
    const result = check(text);
    expect(result.errors).toEqual([]);
    expect(result.ir?.flows.get("f")?.steps.map((s) => s.id)).toEqual(["plan", "late", "run"]);
    expect(result.ir?.flows.get("f")?.stepById.get("run")?.dependencies).toEqual(["late"]);
  });

  it("a cycle through source is a dependency cycle reported at the source", () => {
    const text = spec03(
      "- id: run",
      "  type: parallel_dispatch",
      '  source: "$.steps.run.output.tasks"',
      '  intent_template: "Do {task.id}"',
    );
    expect(check(text).errors.map((d) => `${d.code} ${d.path}`)).toContain(
      `SPEC-DEPENDENCY-CYCLE ${S}.run.source`,
    );
  });

  it("intent_template placeholders are checked against a known task contract (warning)", () => {
    const text = parallel().replace("Do {task.description}", "Do {task.descripton} for {id} in {task.id}");
    expect(check(text).valid).toBe(true);
    expect(shown(text)).toEqual([
      `SPEC-PARALLEL-TEMPLATE-FIELD ${S}.run.intent_template: intent_template placeholder '{task.descripton}' names no field of Task; it is left as written`,
    ]);
  });

  it("require above the output_schema's maxItems of the list is an error; at most maxItems passes", () => {
    const withMax = (require: number) =>
      parallel(`require: ${require}`).replace(
        "output_contract: TaskGraph",
        "output_contract: TaskGraph\n        output_schema: {properties: {tasks: {maxItems: 3}}}",
      );
    expect(shown(withMax(4))).toEqual([
      `SPEC-PARALLEL-REQUIRE-EXCEEDS-TASKS ${S}.run.require: Step 'run' requires 4 completed tasks but its source holds at most 3 (maxItems)`,
    ]);
    expect(shown(withMax(3))).toEqual([]);
  });
});
