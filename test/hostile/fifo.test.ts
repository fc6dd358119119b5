// A FIFO (or any file that is not a regular file) named like a spec or a task
// file must never block a read. Each case puts a real FIFO with no writer where a file is expected
// and drives the real entry point: on the old code every one of these reads blocked for good (the
// MCP call timed out, the CLI run was killed); now each answers at once with a clear error.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CALL_TIMEOUT_MS,
  type McpServer,
  mkfifo,
  startMcp,
  stratumc,
  tempTree,
  writeFile,
} from "./workspace-support";

const FIFO_FLOW = "0b7e2f4c-8d1a-4e6b-9f3c-2a5d7e9b1c40";

const VALID_SPEC = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "A"
`;

const WORKFLOW_SPEC = `version: "0.2"
workflow:
  name: good
  description: "A good one"
  input: {}
flows:
  good:
    input: {}
    steps:
      - id: a
        intent: "A"
`;

describe("a FIFO never blocks the MCP server", () => {
  const tree = tempTree("stratumc-hostile-fifo-");
  const home = tempTree("stratumc-hostile-home-");
  let server: McpServer;

  beforeAll(async () => {
    writeFile(join(tree.path, "workflows/a-good.stratum.yaml"), WORKFLOW_SPEC);
    mkfifo(join(tree.path, "workflows/b-fifo.stratum.yaml"));
    writeFile(join(tree.path, "tasks/t01-first.md"), "# First\n\n## Acceptance Criteria\n- [ ] it works\n");
    mkfifo(join(tree.path, "tasks/t02-fifo.md"));
    mkfifo(join(tree.path, "blocked/.stratum/pipeline-draft.json"));
    // A flow file of the store that is a FIFO (its id is a well-formed flow id).
    mkfifo(join(home.path, `flows/${FIFO_FLOW}.json`));
    server = await startMcp(tree.path, home.path);
  });

  afterAll(async () => {
    await server?.close();
    tree.dispose();
    home.dispose();
  });

  it("stratum_list_workflows reports the FIFO as an error and lists the rest", async () => {
    const r = await server.call("stratum_list_workflows", { workflows_dir: "workflows" });
    expect(r.errors).toEqual(["b-fifo.stratum.yaml: not a regular file (a FIFO)"]);
    expect((r.workflows as { name: string }[]).map((w) => w.name)).toEqual(["good"]);
  });

  it("stratum_compile_speckit refuses a FIFO task file with a compile_error", async () => {
    const r = await server.call("stratum_compile_speckit", { tasks_dir: "tasks" });
    expect(r.status).toBe("error");
    expect(r.error_type).toBe("compile_error");
    expect(r.message).toBe("Cannot read task file 't02-fifo.md': not a regular file (a FIFO)");
  });

  it("stratum_draft_pipeline does not block on a FIFO where the draft goes", async () => {
    const r = await server.call("stratum_draft_pipeline", { draft: {}, project_dir: "blocked" });
    expect(r.status).toBe("error");
    expect(r.error_type).toBe("write_error");
    expect(r.message).toMatch(
      /^Cannot write '.*\/blocked\/\.stratum\/pipeline-draft\.json': not a regular file/,
    );
  });

  it("stratum_audit of a flow whose store file is a FIFO answers at once, and the store goes on", async () => {
    const r = await server.call("stratum_audit", { flow_id: FIFO_FLOW });
    expect(r.status).toBe("error");
    expect(JSON.stringify(r)).toContain("not a regular file (a FIFO)");
    const planned = await server.call("stratum_plan", { spec: VALID_SPEC, flow: "main", inputs: {} });
    expect(planned.status).toBe("execute_step");
  });

  it("the server still answers afterwards", async () => {
    const r = await server.call("stratum_validate", { spec: VALID_SPEC });
    expect(r.valid).toBe(true);
  });
});

describe("a FIFO never blocks the CLI", () => {
  const tree = tempTree("stratumc-hostile-fifo-cli-");
  beforeAll(() => {
    mkfifo(join(tree.path, "pipe.stratum.yaml"));
    mkfifo(join(tree.path, "tasks/t01-fifo.md"));
  });
  afterAll(() => tree.dispose());

  it("stratumc check FIFO: an IO-READ diagnostic, exit 2", () => {
    const r = stratumc(["check", "pipe.stratum.yaml"], tree.path);
    expect(r.signal, `still running after ${CALL_TIMEOUT_MS} ms`).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stdout + r.stderr).toContain(
      "pipe.stratum.yaml:1:1: error: cannot read file: not a regular file (a FIFO) [IO-READ]",
    );
  });

  it("stratumc check DIR skips a FIFO named *.stratum.yaml (only files are collected)", () => {
    writeFile(join(tree.path, "dir/ok.stratum.yaml"), VALID_SPEC);
    mkfifo(join(tree.path, "dir/fifo.stratum.yaml"));
    const r = stratumc(["check", "dir"], tree.path);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
  });

  it("stratumc validate FIFO: a clear error, no hang", () => {
    const r = stratumc(["validate", "pipe.stratum.yaml"], tree.path);
    expect(r.signal).toBeNull();
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toContain("not a regular file (a FIFO)");
  });

  it("stratumc compile DIR with a FIFO task file: ERROR line, exit 1", () => {
    const r = stratumc(["compile", "tasks"], tree.path);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("ERROR: Cannot read task file 't01-fifo.md': not a regular file (a FIFO)");
  });

  it("stratumc check - still reads standard input through a pipe", () => {
    const r = stratumc(["check", "-"], tree.path, VALID_SPEC);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
  });
});
