// `compileSpeckit` (docs/reference/runtime.md §19.1): every error_type, the success response, and the generated
// spec: valid (stratum_validate), and loading to the documented document.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { compileSpeckit } from "../../../interpreter/speckit/compile";
import { wireToPlain } from "../../../interpreter/wire/encode";
import { EXAMPLE_YAML } from "../../support/speckit-example";
import { MemoryWorkspace } from "../workspace/memory-workspace";
import { loadBack } from "./load-back";

const CWD = "/proj";

function compile(fs: MemoryWorkspace, dir: string, flow?: string): Record<string, unknown> {
  return wireToPlain(compileSpeckit(fs, CWD, dir, flow)) as Record<string, unknown>;
}

const TASKS = {
  "/proj/tasks/01-setup.md":
    "# Task: Set up project\n\nCreate the skeleton.\n\n## Acceptance Criteria\n- [ ] file src/index.ts exists\n- [ ] tests pass\n- [x] Code is readable\n",
  "/proj/tasks/02-lint.md":
    "# [P] Lint\n## Acceptance Criteria\n- [ ] no lint errors\n- [ ] all tests pass\n",
  "/proj/tasks/notes.txt": "not a task",
  "/proj/tasks/README.MD": "# not a task either (case-sensitive suffix)",
};

describe("errors", () => {
  it("directory_not_found quotes tasks_dir as given", () => {
    const fs = new MemoryWorkspace({ "/proj/file.md": "# x" });
    expect(compile(fs, "missing/")).toEqual({
      status: "error",
      error_type: "directory_not_found",
      message: "tasks_dir 'missing/' is not a directory",
    });
    expect(compile(fs, "file.md")).toMatchObject({ error_type: "directory_not_found" });
  });

  it("no_tasks names the directory as pathlib prints it", () => {
    const fs = new MemoryWorkspace({ "/proj/tasks/notes.txt": "x", "/proj/tasks/A.MD": "x" });
    expect(compile(fs, "./tasks/./")).toEqual({
      status: "error",
      error_type: "no_tasks",
      message: "No task files (*.md) found in tasks",
    });
    expect(compile(fs, "/proj//tasks/")).toMatchObject({
      message: "No task files (*.md) found in /proj/tasks",
    });
    expect(compile(new MemoryWorkspace({}, ["/proj"]), ".")).toMatchObject({
      message: "No task files (*.md) found in .",
    });
  });

  it("step_id_collision names both files, the later one first", () => {
    const fs = new MemoryWorkspace({ "/proj/t/01-a.md": "# A", "/proj/t/01_a.md": "# B" });
    expect(compile(fs, "t")).toEqual({
      status: "error",
      error_type: "step_id_collision",
      message:
        "Step ID collision: 't01_a' from '01_a.md' conflicts with '01-a.md'. Rename one of the files to produce a distinct step ID.",
    });
  });

  it("compile_error for invalid UTF-8, with Python's decoder message", () => {
    const fs = new MemoryWorkspace({
      "/proj/t/a.md": "# A",
      "/proj/t/b.md": new Uint8Array([0x23, 0x20, 0xe2, 0x82]),
    });
    expect(compile(fs, "t")).toEqual({
      status: "error",
      error_type: "compile_error",
      message:
        "Cannot read task file 'b.md': 'utf-8' codec can't decode bytes in position 2-3: unexpected end of data",
    });
  });

  it("compile_error for an unreadable file and for a directory named *.md", () => {
    const unreadable = new MemoryWorkspace({ "/proj/t/a.md": { fail: "permission denied" } });
    expect(compile(unreadable, "t")).toEqual({
      status: "error",
      error_type: "compile_error",
      message: "Cannot read task file 'a.md': permission denied",
    });
    const dir = new MemoryWorkspace({ "/proj/t/a.md": "# A" }, ["/proj/t/sub.md"]);
    expect(compile(dir, "t")).toMatchObject({
      error_type: "compile_error",
      message: "Cannot read task file 'sub.md': is a directory",
    });
  });

  it("a read failure wins over a collision between earlier files", () => {
    const fs = new MemoryWorkspace({
      "/proj/t/01-a.md": "# A",
      "/proj/t/01_a.md": "# B",
      "/proj/t/02.md": { fail: "permission denied" },
    });
    expect(compile(fs, "t")).toMatchObject({ error_type: "compile_error" });
  });
});

describe("success", () => {
  it("answers status, yaml, flow_name and one summary per task in file order", () => {
    const result = compile(new MemoryWorkspace(TASKS), "tasks");
    expect(Object.keys(result)).toEqual(["status", "yaml", "flow_name", "steps"]);
    expect(result).toMatchObject({
      status: "ok",
      flow_name: "tasks",
      steps: [
        {
          id: "t01_setup",
          title: "Set up project",
          parallel: false,
          ensures: ['file_exists("src/index.ts")', "result.tests_pass == True"],
          judgment: ["Code is readable"],
        },
        {
          id: "t02_lint",
          title: "Lint",
          parallel: true,
          ensures: ["result.lint_clean == True", "result.tests_pass == True"],
          judgment: [],
        },
      ],
    });
  });

  it("generates the documented spec text (docs/reference/runtime.md §19.4)", () => {
    const result = compile(
      new MemoryWorkspace({ "/proj/tasks/01-setup.md": TASKS["/proj/tasks/01-setup.md"] }),
      "tasks",
    );
    expect(result.yaml).toBe(EXAMPLE_YAML);
  });

  it("generates a valid spec whose IR has the steps, dependencies and ensures", () => {
    const yaml = compile(new MemoryWorkspace(TASKS), "tasks").yaml as string;
    const checked = checkSpec(yaml);
    expect(checked.errors).toEqual([]);
    const flow = checked.ir?.flows.get("tasks");
    expect(flow?.steps.map((s) => s.id)).toEqual(["t01_setup", "t02_lint"]);
    expect(loadBack(yaml).value).toMatchObject({
      flows: {
        tasks: {
          steps: [
            { id: "t01_setup" },
            {
              id: "t02_lint",
              depends_on: ["t01_setup"],
              output_schema: { required: ["done", "tests_pass", "lint_clean"] },
            },
          ],
        },
      },
    });
  });

  it("sorts file names by code point, includes dot-files, resolves absolute and relative dirs", () => {
    const fs = new MemoryWorkspace({ "/abs/t/a.md": "# a", "/abs/t/B2.md": "# B2", "/abs/t/.md": "# dot" });
    const ids = (r: Record<string, unknown>): unknown => (r.steps as { id: string }[]).map((s) => s.id);
    expect(ids(compile(fs, "/abs/t"))).toEqual(["md", "b2", "a"]);
    expect(ids(compile(fs, "../abs/t"))).toEqual(["md", "b2", "a"]);
  });

  it("uses the flow name as given, quoting it when it is not plain-safe", () => {
    for (const flow of ["build", "yes", "my flow: two", "0.5", "a\nb", "f".repeat(2000)]) {
      const result = compile(new MemoryWorkspace(TASKS), "tasks", flow);
      expect(result.flow_name).toBe(flow);
      const yaml = result.yaml as string;
      expect(checkSpec(yaml).errors).toEqual([]);
      expect(Object.keys((loadBack(yaml).value as { flows: object }).flows)).toEqual([flow]);
    }
  });

  it("adds warnings when the compiled spec does not validate (a path with a quote)", () => {
    const fs = new MemoryWorkspace({
      "/proj/t/a.md": '# A\n## Acceptance Criteria\n- [ ] file a"b exists\n',
    });
    const result = compile(fs, "t");
    expect(result.status).toBe("ok");
    expect((result.steps as { ensures: string[] }[])[0]?.ensures).toEqual(['file_exists("a"b")']);
    expect(result.warnings).toEqual(
      checkSpec(result.yaml as string).errors.map((d) => `compiled spec: ${d.path}: ${d.message}`),
    );
    expect((result.warnings as string[]).length).toBeGreaterThan(0);
  });

  it("an empty file compiles to a valid spec whose intent is the step id", () => {
    const result = compile(new MemoryWorkspace({ "/proj/t/x.md": "" }), "t");
    expect(result.steps).toEqual([{ id: "x", title: "", parallel: false, ensures: [], judgment: [] }]);
    expect(checkSpec(result.yaml as string).errors).toEqual([]);
    expect(loadBack(result.yaml as string).value).toMatchObject({ functions: { x: { intent: "x" } } });
  });

  it("an intent with only a description or only judgment starts with an empty title line", () => {
    const fs = new MemoryWorkspace({ "/proj/t/a.md": "body\n# \n## Acceptance Criteria\n- [ ] Looks good" });
    const yaml = compile(fs, "t").yaml as string;
    expect(loadBack(yaml).value).toMatchObject({ functions: { a: { intent: "\nAlso verify: Looks good" } } });
    expect(checkSpec(yaml).errors).toEqual([]);
  });
});
