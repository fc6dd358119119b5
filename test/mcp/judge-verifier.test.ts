// The judge's verifier tier end to end (docs/reference/runtime.md §25.3): the built stratum-mcp over
// stdio, its agent a fake program (STRATUM_AGENT_COMMAND) that answers by the predicate statement
// in its prompt — met with a citation, not_met, prose that is no verdict, or nothing before the
// time limit. The agent runs in a copy of the staged evidence outside the workspace, with the
// read-only tool lists and the scrubbed environment; the copy is gone once it ends.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { callTool } from "./support/mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./support/server";

type Plain = Record<string, unknown>;

const AGENT = `#!/bin/sh
prompt=$(cat)
log=$FAKE_AGENT_LOG
echo "pid $$" >> "$log"
echo "cwd $(pwd)" >> "$log"
echo "files $(cd "$(pwd)" && find . -type f | sort | tr '\\n' ' ')" >> "$log"
echo "tools $(echo "$STRATUM_AGENT_ALLOWED_TOOLS" | tr '\\n' ,) denied $(echo "$STRATUM_AGENT_DISALLOWED_TOOLS" | tr '\\n' ,) model $STRATUM_AGENT_MODEL secret \${SECRET_TOKEN:-none}" >> "$log"
case "$prompt" in
  *"Predicate statement: the tests pass"*)
    printf '\`\`\`json\\n{"predicate_id": "p1", "verdict": "met", "confidence": 9, "reason": "the log says so", "evidence": [{"source": "artifacts/log.txt:2", "quote": "12 passed", "tier": "T2"}]}\\n\`\`\`\\n' ;;
  *"Predicate statement: the docs are updated"*)
    echo '{"verdict": "not_met", "confidence": 8, "reason": "README.md is unchanged", "evidence": []}' ;;
  *"Predicate statement: anything"*) echo "Looks good to me!" ;;
  *) sleep 60 ;;
esac
`;

const spec = (type: string, statement: string) => `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: review
        judge:
          predicates:
            - {id: p1, type: ${type}, statement: "${statement}"}
`;

describe("stratum_judge's verifier through stratum-mcp", () => {
  let home: ReturnType<typeof tempDir>;
  let work: ReturnType<typeof tempDir>;
  let log: string;
  let server: RunningServer;
  const problems: string[] = [];

  beforeEach(async () => {
    home = tempDir("stratum-judge-verifier-home-");
    work = tempDir("stratum-judge-verifier-work-");
    const agent = join(home.path, "agent.sh");
    writeFileSync(agent, AGENT);
    chmodSync(agent, 0o755);
    log = join(home.path, "agent.log");
    writeFileSync(log, "");
    writeFileSync(join(work.path, "app.ts"), "export {};\n");
    problems.length = 0;
    server = await startServer({
      cwd: work.path,
      home: home.path,
      env: {
        STRATUM_AGENT_COMMAND: agent,
        FAKE_AGENT_LOG: log,
        STRATUM_AGENT_ENV: "FAKE_AGENT_LOG",
        STRATUM_AGENT_RUN_TIMEOUT: "2",
        SECRET_TOKEN: "s3cret",
      },
    });
  });

  afterEach(async () => {
    await server.closeInput();
    const stderr = server.stderr();
    for (const pid of logged("pid ")) {
      try {
        process.kill(-Number(pid), "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    home.dispose();
    work.dispose();
    expect(unexpectedStderr(stderr)).toBe("");
    expect(problems).toEqual([]);
  });

  function logged(prefix: string): string[] {
    return readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l.startsWith(prefix))
      .map((l) => l.slice(prefix.length));
  }

  async function call(name: string, args: Plain): Promise<Plain> {
    const answer = await callTool(server.client, name, args, problems);
    expect(answer.isError).toBe(false);
    return wireToPlain(answer.response as never) as Plain;
  }

  async function judge(type: string, statement: string): Promise<Plain> {
    const plan = await call("stratum_plan", { spec: spec(type, statement), flow: "main", inputs: {} });
    expect(plan).toMatchObject({ status: "execute_step", step_mode: "judge" });
    return call("stratum_judge", {
      flow_id: plan.flow_id,
      step_id: "review",
      predicates: plan.predicates,
      artifacts: { log: "compiling\n12 passed\n" },
      modified_files: ["app.ts"],
      stakes: plan.stakes,
      budget: plan.budget,
    });
  }

  it("judges met on the agent's cited evidence, run in a copy of it outside the workspace", async () => {
    const met = await judge("verified", "the tests pass");
    expect(met).toMatchObject({
      met: true,
      summary: "judge: 1/1 predicates met (T2, claude); degraded_judged=false",
      predicates: [
        {
          verdict: "met",
          confidence: 9,
          evidence: [{ source: "artifacts/log.txt:2", quote: "12 passed", tier: "T2" }],
          tier_history: [
            { tier: "T1", verdict: "n/a", confidence: null },
            { tier: "T2", verdict: "met", confidence: 9, reason: "the log says so" },
          ],
        },
      ],
    });
    const [cwd] = logged("cwd ");
    expect(cwd).toBeDefined();
    expect(String(cwd).startsWith(work.path)).toBe(false);
    expect(existsSync(String(cwd))).toBe(false);
    expect(logged("files ")).toEqual(["./artifacts/log.txt ./modified/app.ts "]);
    expect(logged("tools ")).toEqual([
      "Read,Grep,Glob, denied Edit,Write,NotebookEdit,Task,Bash, model claude-sonnet-4-6 secret none",
    ]);
  });

  it("judges not_met with a must-fix finding, and a judged predicate is degraded", async () => {
    expect(await judge("judged", "the docs are updated")).toMatchObject({
      met: false,
      summary: "judge: 0/1 predicates met (T2, claude); degraded_judged=true",
      findings: [{ severity: "must-fix", finding: "the docs are updated — README.md is unchanged" }],
    });
  });

  it("fails the call on a reply that is no verdict, and on an agent that outlives its time limit", async () => {
    expect(await judge("verified", "anything")).toMatchObject({
      status: "error",
      error_type: "verifier_failed",
      message: expect.stringContaining("predicate 'p1': the verifier's reply is not JSON"),
    });
    const started = Date.now();
    expect(await judge("verified", "hangs")).toMatchObject({
      status: "error",
      error_type: "verifier_failed",
      message: "the verifier of predicate 'p1' failed (agent_failed): the agent run timed out after 2s",
    });
    expect(Date.now() - started).toBeLessThan(2_000 + 15_000);
    // The server answered, and the staged copies are gone.
    for (const cwd of logged("cwd ")) expect(existsSync(cwd)).toBe(false);
  });
});
