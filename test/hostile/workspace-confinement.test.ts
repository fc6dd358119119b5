// The workspace tools (stratum_list_workflows, stratum_compile_speckit,
// stratum_draft_pipeline) are confined to the workspace root — the server's working directory, or
// STRATUM_WORKSPACE_ROOT — with the rules of the file builtins: symbolic links resolved, anything
// resolving outside the root refused with an error naming the path and the root. A secret file
// and a workflow sit outside the root; the server is driven over stdio as a client would. On the
// old code compile_speckit returned the secret through a `*.md` link, list_workflows listed the
// outside directory and draft_pipeline wrote there.
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpServer, startMcp, tempTree, writeFile } from "./workspace-support";

const SECRET = "TOP-SECRET-7f3a";
const SECRET_TASK = `# Task: ${SECRET}\n\n${SECRET} body\n\n## Acceptance Criteria\n- [ ] ${SECRET} leaked\n`;
const WORKFLOW = (name: string) => `version: "0.2"
workflow:
  name: ${name}
  description: "${name}"
  input: {}
flows:
  ${name}:
    input: {}
    steps:
      - id: a
        intent: "A"
`;

describe("workspace tools are confined to the server's working directory", () => {
  const base = tempTree("stratumc-hostile-jail-");
  const home = tempTree("stratumc-hostile-home-");
  const root = join(base.path, "project");
  const outside = join(base.path, "outside");
  let server: McpServer;

  beforeAll(async () => {
    // Outside the root: a secret task file, a task directory, a workflow.
    writeFile(join(outside, "secret.md"), SECRET_TASK);
    writeFile(join(outside, "tasks/t01-secret.md"), SECRET_TASK);
    writeFile(join(outside, `${SECRET}.stratum.yaml`), WORKFLOW("outsider"));
    // Inside: an ordinary task directory and one whose *.md link points out of the root.
    writeFile(join(root, "tasks/t01-ok.md"), "# Ok\n\n## Acceptance Criteria\n- [ ] fine\n");
    writeFile(join(root, "evil/t01-ok.md"), "# Ok\n");
    symlinkSync(join(outside, "secret.md"), join(root, "evil/t02-leak.md"));
    symlinkSync("/etc/passwd", join(root, "evil/t03-passwd.md"));
    // Links to directories outside, a workflow link, a `.stratum` link.
    symlinkSync(outside, join(root, "out-link"));
    writeFile(join(root, "flows/a.stratum.yaml"), WORKFLOW("inside"));
    symlinkSync(join(outside, `${SECRET}.stratum.yaml`), join(root, "flows/b.stratum.yaml"));
    mkdirSync(join(root, "sneaky"));
    symlinkSync(outside, join(root, "sneaky/.stratum"));
    server = await startMcp(root, home.path);
  });

  afterAll(async () => {
    await server?.close();
    base.dispose();
    home.dispose();
  });

  const refusedPath = (arg: string, dir: string) => `${arg} '${dir}' is outside the workspace root '${root}'`;

  it("compile_speckit refuses a *.md symlink that leaves the root, and leaks nothing", async () => {
    const r = await server.call("stratum_compile_speckit", { tasks_dir: "evil" });
    expect(r.status).toBe("error");
    expect(r.error_type).toBe("compile_error");
    expect(r.message).toBe(`Cannot read task file 't02-leak.md': outside the workspace root '${root}'`);
    expect(r.text).not.toContain(SECRET);
    expect(r.text).not.toContain("root:");
  });

  it.each([
    ["an absolute path", () => join(outside, "tasks")],
    ["a relative path with ..", () => "../outside/tasks"],
    ["a symbolic link to a directory outside", () => "out-link/tasks"],
  ])("compile_speckit refuses tasks_dir as %s", async (_label, dir) => {
    const r = await server.call("stratum_compile_speckit", { tasks_dir: dir() });
    expect(r.status).toBe("error");
    expect(r.error_type).toBe("outside_workspace_root");
    expect(r.message).toBe(refusedPath("tasks_dir", dir()));
    expect(r.text).not.toContain(SECRET);
  });

  it("compile_speckit still compiles a directory inside the root", async () => {
    const r = await server.call("stratum_compile_speckit", { tasks_dir: "tasks" });
    expect(r.status).toBe("ok");
  });

  it.each([
    ["an absolute path", () => outside],
    ["a relative path with ..", () => ".."],
    ["a symbolic link to a directory outside", () => "out-link"],
    ["the file-system root", () => "/"],
  ])("list_workflows refuses workflows_dir as %s", async (_label, dir) => {
    const r = await server.call("stratum_list_workflows", { workflows_dir: dir() });
    expect(r.workflows).toEqual([]);
    expect(r.errors).toEqual([refusedPath("workflows_dir", dir())]);
    expect(r.text).not.toContain(SECRET);
  });

  it("list_workflows does not read a *.stratum.yaml symlink that leaves the root", async () => {
    const r = await server.call("stratum_list_workflows", { workflows_dir: "flows" });
    expect((r.workflows as { name: string }[]).map((w) => w.name)).toEqual(["inside"]);
    expect(r.errors).toEqual([`b.stratum.yaml: outside the workspace root '${root}'`]);
  });

  it.each([
    ["an absolute path", () => outside],
    ["a relative path with ..", () => "../outside"],
    ["a symbolic link to a directory outside", () => "out-link"],
  ])("draft_pipeline refuses project_dir as %s and writes nothing", async (_label, dir) => {
    const r = await server.call("stratum_draft_pipeline", { draft: { name: "x" }, project_dir: dir() });
    expect(r.status).toBe("error");
    expect(r.error_type).toBe("outside_workspace_root");
    expect(r.message).toBe(refusedPath("project_dir", dir()));
    expect(existsSync(join(outside, ".stratum"))).toBe(false);
  });

  it("draft_pipeline refuses a .stratum symlink that leaves the root", async () => {
    const r = await server.call("stratum_draft_pipeline", { draft: { name: "x" }, project_dir: "sneaky" });
    expect(r.status).toBe("error");
    expect(r.error_type).toBe("write_error");
    expect(r.message).toContain(`outside the workspace root '${root}'`);
    expect(existsSync(join(outside, "pipeline-draft.json"))).toBe(false);
  });

  it("draft_pipeline still writes inside the root", async () => {
    const r = await server.call("stratum_draft_pipeline", { draft: { name: "x" } });
    expect(r).toMatchObject({ status: "saved", path: join(root, ".stratum/pipeline-draft.json") });
    expect(JSON.parse(readFileSync(join(root, ".stratum/pipeline-draft.json"), "utf8")).name).toBe("x");
  });
});

describe("STRATUM_WORKSPACE_ROOT sets the root", () => {
  const base = tempTree("stratumc-hostile-jail-env-");
  const home = tempTree("stratumc-hostile-home-");
  const root = join(base.path, "root");
  const cwd = join(root, "sub");
  let server: McpServer;

  beforeAll(async () => {
    writeFile(join(root, "tasks/t01-ok.md"), "# Ok\n");
    writeFile(join(base.path, "other/tasks/t01-other.md"), `# ${SECRET}\n`);
    mkdirSync(cwd, { recursive: true });
    server = await startMcp(cwd, home.path, { STRATUM_WORKSPACE_ROOT: root });
  });

  afterAll(async () => {
    await server?.close();
    base.dispose();
    home.dispose();
  });

  it("allows what is under the configured root, relative paths still against the working directory", async () => {
    const r = await server.call("stratum_compile_speckit", { tasks_dir: "../tasks" });
    expect(r.status).toBe("ok");
  });

  it("refuses what is outside it", async () => {
    const r = await server.call("stratum_compile_speckit", { tasks_dir: "../../other/tasks" });
    expect(r.error_type).toBe("outside_workspace_root");
    expect(r.message).toBe(`tasks_dir '../../other/tasks' is outside the workspace root '${root}'`);
    expect(r.text).not.toContain(SECRET);
  });
});
