// Running scenario tests through the interpreter's API (interpreter/scenario/): every kind of
// script entry, and each way a test fails, with the place in the test file it names.
import { describe, expect, it } from "vitest";
import { checkScenario } from "../../../checker/index";
import { runScenarioFile, type TestOutcome } from "../../../interpreter/index";

const SPEC = `version: "0.3"
contracts:
  Out:
    v: { type: string }
flows:
  main:
    input:
      n: { type: integer }
      tasks: { type: array }
    max_rounds: 2
    steps:
      - id: plan
        intent: "Plan"
        inputs: {}
        output_contract: Out
        ensure:
          - "result.v != 'bad'"
        retries: 2
      - id: review
        type: parallel_dispatch
        source: "$.input.tasks"
        intent_template: "Review {task.id}"
        require: all
      - id: loop
        intent: "Loop"
        inputs: {}
        max_iterations: 3
        exit_criterion: "result.done == True"
      - id: gate
        function: ok
        on_approve: ~
        on_revise: plan
        on_kill: ~
functions:
  ok:
    mode: gate
`;

const HEADER = "spec: main.stratum.yaml\nflow: main\ntests:\n";

async function run(tests: string, spec = SPEC): Promise<{ outcomes: TestOutcome[]; text: string }> {
  const text = HEADER + tests;
  const check = checkScenario(text, () => ({ ok: true, text: spec }));
  expect(check.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([]);
  return { outcomes: await runScenarioFile(check), text };
}

/** The text a failure's range covers. */
function at(text: string, o: TestOutcome): string {
  return o.failure === null ? "" : text.slice(o.failure.range.start, o.failure.range.end);
}

const TASKS = "{n: 1, tasks: [{id: t1, description: one, files_owned: [a.py], depends_on: []}]}";

describe("script entries", () => {
  it("step results, parallel tasks, iteration reports and a gate take a flow to completion", async () => {
    const { outcomes } = await run(`  all kinds:
    input: ${TASKS}
    script:
      - {step: plan, result: {v: ok}}
      - {parallel: review, tasks: [{id: t1, result: {ok: true}}]}
      - {iteration: loop, report: {done: false}}
      - {iteration: loop, report: {done: true}}
      - {step: loop, result: {done: true}}
      - {gate: gate, outcome: approve, note: fine}
    expect:
      status: complete
      steps: {plan: done, review: done, loop: done, gate: done}
`);
    expect(outcomes[0]?.failure).toBeNull();
    expect(outcomes[0]?.status).toBe("complete");
  });

  it("an aborted loop, then the step's result", async () => {
    const { outcomes } = await run(`  abort:
    input: ${TASKS}
    script:
      - {step: plan, result: {v: ok}}
      - {parallel: review, tasks: [{id: t1, result: {}}]}
      - {iteration: loop, abort: "no progress"}
      - {step: loop, result: {done: false}}
    expect: {status: waiting, steps: {loop: done, gate: running}}
`);
    expect(outcomes[0]?.failure).toBeNull();
  });

  it("fail: an attempt the interpreter refuses; a revise goes back and the step runs again", async () => {
    const { outcomes } = await run(`  retry and revise:
    input: ${TASKS}
    script:
      - {step: plan, fail: "ensure refuses bad", result: {v: bad}}
      - {step: plan, result: {v: ok}}
      - {parallel: review, tasks: [{id: t1, result: {}}]}
      - {step: loop, result: {}}
      - {gate: gate, outcome: revise}
    expect: {status: waiting, steps: {plan: running, gate: pending}}
`);
    expect(outcomes[0]?.failure).toBeNull();
  });

  it("a skip by hand", async () => {
    const { outcomes } = await run(`  skip:
    input: ${TASKS}
    script:
      - {skip: plan, reason: "done elsewhere"}
    expect: {status: waiting, steps: {plan: skipped, review: running}}
`);
    expect(outcomes[0]?.failure).toBeNull();
  });

  it("exhausting the retries of a step without on_fail: status failed, the step failed", async () => {
    const { outcomes } = await run(`  exhausted:
    input: ${TASKS}
    script:
      - {step: plan, fail: "first", result: {v: bad}}
      - {step: plan, fail: "second", result: {v: bad}}
    expect: {status: failed, steps: {plan: failed}}
`);
    expect(outcomes[0]?.failure).toBeNull();
    expect(outcomes[0]?.status).toBe("failed");
  });
});

describe("each way a test fails names its place", () => {
  it("a script answering the wrong step: at the entry, with what was dispatched", async () => {
    const { outcomes, text } = await run(`  wrong:
    input: ${TASKS}
    script:
      - {step: loop, result: {}}
`);
    const o = outcomes[0]!;
    expect(o.failure?.message).toBe(
      "the script answers step 'loop', but the interpreter dispatched step 'plan'",
    );
    expect(at(text, o)).toBe("{step: loop, result: {}}");
  });

  it("a script going on after the flow finished", async () => {
    const { outcomes } = await run(`  too long:
    input: ${TASKS}
    script:
      - {step: plan, result: {v: ok}}
      - {parallel: review, tasks: [{id: t1, result: {}}]}
      - {step: loop, result: {}}
      - {gate: gate, outcome: kill}
      - {step: plan, result: {v: ok}}
`);
    expect(outcomes[0]?.failure?.message).toBe("the script answers step 'plan', but the flow is killed");
  });

  it("a result the interpreter refuses: at the result, with the violation", async () => {
    const { outcomes, text } = await run(`  refused:
    input: ${TASKS}
    script:
      - {step: plan, result: {v: bad}}
`);
    const o = outcomes[0]!;
    expect(o.failure?.message).toBe(
      "the interpreter refused the result of step 'plan': ensure 'result.v != 'bad'' failed",
    );
    expect(at(text, o)).toBe("{v: bad}");
  });

  it("fail: on a result the interpreter accepts", async () => {
    const { outcomes, text } = await run(`  accepted:
    input: ${TASKS}
    script:
      - {step: plan, fail: "should be refused", result: {v: ok}}
`);
    const o = outcomes[0]!;
    expect(o.failure?.message).toMatch(
      /^the script expects the interpreter to refuse this attempt of step 'plan'/,
    );
    expect(at(text, o)).toBe('"should be refused"');
  });

  it("an input the plan refuses: at the input", async () => {
    const spec = `version: "0.2"
flows:
  main:
    input:
      n: { type: integer }
    steps:
      - id: first
        intent: "First"
        inputs:
          x: "$.input.n"
`;
    const { outcomes, text } = await run(
      `  bad input:
    input: {m: 1}
`,
      spec,
    );
    const o = outcomes[0]!;
    expect(o.failure?.message).toBe(
      "the interpreter refused to start the flow: $.input.n not found in flow inputs",
    );
    expect(at(text, o)).toBe("{m: 1}");
  });

  it("expect.status, expect.output and expect.steps: the first that differs, at its value", async () => {
    const { outcomes, text } = await run(`  status:
    input: ${TASKS}
    script:
      - {step: plan, result: {v: ok}}
    expect: {status: complete}
  steps:
    input: ${TASKS}
    script:
      - {step: plan, result: {v: ok}}
    expect: {status: waiting, steps: {plan: done, review: done}}
  output:
    input: ${TASKS}
    script:
      - {step: plan, result: {v: ok}}
      - {parallel: review, tasks: [{id: t1, result: {}}]}
      - {step: loop, result: {x: {y: 1}}}
      - {gate: gate, outcome: approve}
    expect: {status: complete, output: {x: {y: 2}}}
`);
    const [status, steps, output] = outcomes;
    expect(status?.failure).toMatchObject({ expected: "complete", actual: "waiting" });
    expect(at(text, status!)).toBe("complete");
    expect(steps?.failure?.message).toBe("expect.steps.review: expected done, got running");
    expect(output?.failure?.message).toBe("expect.output.x.y: expected 2, got 1");
    expect(at(text, output!)).toBe("2");
  });
});

describe("runs are independent and repeatable", () => {
  it("the same file gives the same outcomes twice", async () => {
    const tests = `  a:
    input: ${TASKS}
    script:
      - {step: plan, result: {v: ok}}
  b:
    input: ${TASKS}
    script:
      - {step: plan, fail: "x", result: {v: bad}}
`;
    const first = await run(tests);
    const second = await run(tests);
    expect(second.outcomes).toEqual(first.outcomes);
    expect(first.outcomes.map((o) => o.failure)).toEqual([null, null]);
  });
});

describe("gate decisions the interpreter refuses", () => {
  it("a revise past max_rounds fails the test at the decision", async () => {
    const revise = `      - {step: plan, result: {v: ok}}
      - {parallel: review, tasks: [{id: t1, result: {}}]}
      - {step: loop, result: {}}
      - {gate: gate, outcome: revise}
`;
    const { outcomes, text } = await run(`  rounds:
    input: ${TASKS}
    script:
${revise}${revise}${revise}`);
    const o = outcomes[0]!;
    expect(o.failure?.message).toBe("the interpreter refused the gate decision: Maximum rounds (2) exceeded");
    expect(text.slice(0, o.failure?.range.start).split("\n").length).toBe(18); // the third revise
  });
});
