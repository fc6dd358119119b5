// A compiled spec must run (docs/reference/runtime.md §19.4): the YAML `compile` prints is planned and driven to
// completion by the engine, its ensures and output schemas are enforced, and (property) specs
// compiled from arbitrary task directories validate and plan.
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { wireToPlain } from "../../../interpreter/wire/encode";
import { parseJson } from "../../../stdlib/values/json";
import { makeTestApi } from "../../interpreter/support/make-test-api";
import { cli, FIXTURE_ROOT, mcp, TempDir } from "./harness";

let project: TempDir;
beforeEach(() => {
  project = new TempDir();
});
afterEach(() => project.dispose());

const INPUTS = parseJson('{"project_context": "a web app with a login"}');

async function compiledFixture(): Promise<string> {
  const r = await mcp(["compile", "tasks"], { cwd: FIXTURE_ROOT });
  expect(r.code).toBe(0);
  return r.stdout;
}

function plain(response: unknown): Record<string, unknown> {
  return wireToPlain(response as Parameters<typeof wireToPlain>[0]) as Record<string, unknown>;
}

describe("the compiled fixture spec runs", () => {
  it("plans its first task with the task's ensures, context input and output fields", async () => {
    const { api } = makeTestApi({ cwd: project.path });
    const planned = plain(await api.plan({ spec: await compiledFixture(), flow: "tasks", inputs: INPUTS }));
    expect(planned).toMatchObject({
      status: "execute_step",
      step_id: "t01_research",
      step_mode: "function",
      function: "t01_research",
      intent:
        "Research the auth options\nLook at OAuth and JWT.\nAlso verify: Summary is clear and actionable",
      inputs: { task_context: "a web app with a login" },
      ensure: ['file_exists("docs/auth.md")', "result.done == True"],
      output_fields: { done: "boolean" },
      step_number: 1,
      total_steps: 4,
    });
  });

  it("runs to completion when the files exist and the results say done / tests_pass / lint_clean", async () => {
    project.write("docs/auth.md", "# Auth\n");
    project.write("src/auth.ts", "export function verifyJwt() {}\n");
    project.write("src/login.tsx", "export {};\n");
    const { api } = makeTestApi({ cwd: project.path });
    const planned = plain(await api.plan({ spec: await compiledFixture(), flow: "tasks", inputs: INPUTS }));
    const flowId = String(planned.flow_id);
    const results: [string, string, string][] = [
      ["t01_research", '{"done": true}', "t02a_backend"],
      ["t02a_backend", '{"done": true, "tests_pass": true}', "t02b_frontend"],
      ["t02b_frontend", '{"done": true, "lint_clean": true}', "t03_integrate"],
    ];
    for (const [step, result, next] of results) {
      const answer = plain(await api.stepDone({ flow_id: flowId, step_id: step, result: parseJson(result) }));
      expect([answer.status, answer.step_id]).toEqual(["execute_step", next]);
    }
    const done = plain(
      await api.stepDone({
        flow_id: flowId,
        step_id: "t03_integrate",
        result: parseJson('{"done": true, "tests_pass": true}'),
      }),
    );
    expect(done).toMatchObject({
      status: "complete",
      flow_id: flowId,
      output: { done: true, tests_pass: true },
    });
  });

  it("enforces the compiled ensures and output schema", async () => {
    const { api } = makeTestApi({ cwd: project.path });
    const planned = plain(await api.plan({ spec: await compiledFixture(), flow: "tasks", inputs: INPUTS }));
    const flowId = String(planned.flow_id);
    // docs/auth.md does not exist: the file_exists ensure fails and the step is retried.
    const missing = plain(
      await api.stepDone({ flow_id: flowId, step_id: "t01_research", result: parseJson('{"done": true}') }),
    );
    expect(missing).toMatchObject({
      status: "ensure_failed",
      step_id: "t01_research",
      violations: [expect.any(String)],
    });
    project.write("docs/auth.md", "# Auth\n");
    await api.stepDone({ flow_id: flowId, step_id: "t01_research", result: parseJson('{"done": true}') });
    // t02a's output schema requires tests_pass.
    const noTests = plain(
      await api.stepDone({ flow_id: flowId, step_id: "t02a_backend", result: parseJson('{"done": true}') }),
    );
    expect(noTests).toMatchObject({ status: "schema_failed", step_id: "t02a_backend" });
  });
});

/** The line breaks of docs/reference/runtime.md §19.2 (task files are split at each of them). */
const LINE_BREAKS = new Set(["\r", "\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]);

/** Arbitrary text (any graphemes) on one line of a task file. */
const oneLine = (maxLength: number) =>
  fc
    .string({ maxLength, unit: "grapheme" })
    .map((s) => Array.from(s, (c) => (LINE_BREAKS.has(c) ? " " : c)).join(""));

/** Task file text: a title (maybe [P]), a description, criteria of every kind the compiler knows. */
const taskText = fc
  .record({
    title: oneLine(20),
    parallel: fc.boolean(),
    description: fc.array(oneLine(20), { maxLength: 2 }),
    criteria: fc.array(
      fc.oneof(
        fc.constantFrom("file src/a.ts exists", "file src/a.ts contains 'needle words'", "all tests pass"),
        fc.constantFrom("no lint errors", "lint clean", "file docs/x.md contains KEY"),
        oneLine(20).map((text) => `check ${text}`), // free-form (judgment) unless it mentions tests or lint
      ),
      { maxLength: 4 },
    ),
  })
  .map(({ title, parallel, description, criteria }) =>
    [
      `# Task: ${parallel ? "[P] " : ""}${title}`,
      ...description.map((line) => (line.trimStart().startsWith("#") ? `text ${line}` : line)),
      "## Acceptance Criteria",
      ...criteria.map((c) => `- [ ] ${c}`),
      "",
    ].join("\n"),
  );

describe("compiled specs validate and plan (property)", () => {
  it("for arbitrary task directories and flow names made of letters", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(taskText, { minLength: 1, maxLength: 4 }),
        fc.stringMatching(/^[a-z][a-z_]{0,8}$/),
        async (tasks, flow) => {
          const dir = new TempDir(Object.fromEntries(tasks.map((text, i) => [`tasks/${i}-task.md`, text])));
          try {
            const compiled = await cli(["compile", "tasks", "--flow", flow], { cwd: dir.path });
            expect([compiled.code, compiled.stderr]).toEqual([0, ""]);
            const checked = await cli(["validate", "-"], { cwd: dir.path, stdin: compiled.stdout });
            expect(JSON.parse(checked.stdout)).toMatchObject({ valid: true, errors: [] });
            const { api } = makeTestApi({ cwd: dir.path });
            const planned = plain(await api.plan({ spec: compiled.stdout, flow, inputs: INPUTS }));
            expect([planned.status, planned.step_id, planned.total_steps]).toEqual([
              "execute_step",
              "t0_task",
              tasks.length,
            ]);
          } finally {
            dir.dispose();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
