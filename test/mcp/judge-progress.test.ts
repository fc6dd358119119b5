// stratum_judge's progress and cancellation through the built stratum-mcp over stdio with the SDK's
// client (docs/guides/mcp-server-progress.md), its verifier agents a fake program
// (STRATUM_AGENT_COMMAND) that answers by the predicate statement in its prompt: with a progress
// token each agent's start is reported (answered of total, the predicate), without one nothing is;
// cancelled while an agent runs, the agent's process is stopped, the call gets no answer, the
// client at level `info` is told what was done, no judge turn is recorded, and the server goes on.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CallToolResultSchema,
  type JSONRPCMessage,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { verifierProgress } from "../../mcp/judge-progress";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./support/server";

type Plain = Record<string, unknown>;

const AGENT = `#!/bin/sh
prompt=$(cat)
echo "pid $$" >> "$FAKE_AGENT_LOG"
case "$prompt" in
  *"Predicate statement: the tests pass"*)
    echo '{"predicate_id": "p1", "verdict": "met", "confidence": 9, "reason": "the log says so", "evidence": [{"source": "artifacts/log.txt:1", "quote": "12 passed", "tier": "T2"}]}' ;;
  *"Predicate statement: the docs are updated"*)
    echo '{"predicate_id": "p2", "verdict": "met", "confidence": 9, "reason": "they are", "evidence": [{"source": "artifacts/log.txt:1", "quote": "12 passed", "tier": "T2"}]}' ;;
  *"Predicate statement: it answers once released"*)
    if [ -f "$FAKE_AGENT_LOG.release" ]; then
      echo '{"predicate_id": "p2", "verdict": "met", "confidence": 9, "reason": "released", "evidence": [{"source": "artifacts/log.txt:1", "quote": "12 passed", "tier": "T2"}]}'
    else
      sleep 60
    fi ;;
esac
`;

const spec = (statements: readonly string[]) => `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: review
        judge:
          predicates:
${statements.map((s, i) => `            - {id: p${i + 1}, type: verified, statement: "${s}"}`).join("\n")}
`;

interface ProgressParams {
  readonly progressToken: string | number;
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

describe("stratum_judge's progress and cancellation", () => {
  let home: ReturnType<typeof tempDir>;
  let log: string;
  let server: RunningServer;
  const wire: JSONRPCMessage[] = [];
  const logs: { level: string; data: unknown }[] = [];

  beforeEach(async () => {
    home = tempDir("stratum-judge-progress-");
    const agent = join(home.path, "agent.sh");
    writeFileSync(agent, AGENT);
    chmodSync(agent, 0o755);
    log = join(home.path, "agent.log");
    writeFileSync(log, "");
    wire.length = 0;
    logs.length = 0;
    server = await startServer({
      cwd: home.path,
      home: home.path,
      env: {
        STRATUM_AGENT_COMMAND: agent,
        FAKE_AGENT_LOG: log,
        STRATUM_AGENT_ENV: "FAKE_AGENT_LOG",
        STRATUM_AGENT_RUN_TIMEOUT: "120",
      },
      beforeConnect: (client) =>
        client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
          logs.push({ level: n.params.level, data: n.params.data });
        }),
    });
    const delivered = server.transport.onmessage;
    server.transport.onmessage = (message: JSONRPCMessage) => {
      wire.push(message);
      delivered?.(message);
    };
  });

  afterEach(async () => {
    const stderr = server.stderr();
    // An agent still running would hold the server's exit.
    for (const pid of pids()) {
      try {
        process.kill(-Number(pid), "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    await server.closeInput();
    home.dispose();
    expect(unexpectedStderr(stderr)).toBe("");
  });

  function pids(): string[] {
    return readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l.startsWith("pid "))
      .map((l) => l.slice(4));
  }

  function progressOnWire(): ProgressParams[] {
    return wire
      .filter((m) => "method" in m && m.method === "notifications/progress")
      .map((m) => (m as unknown as { params: ProgressParams }).params);
  }

  async function plan(statements: readonly string[]): Promise<Plain> {
    const planned = await server.client.callTool({
      name: "stratum_plan",
      arguments: { spec: spec(statements), flow: "main", inputs: {} },
    });
    return planned.structuredContent as Plain;
  }

  const judgeArgs = (planned: Plain): Plain => ({
    flow_id: planned.flow_id,
    step_id: "review",
    predicates: planned.predicates,
    artifacts: { log: "12 passed\n" },
    stakes: planned.stakes,
    budget: planned.budget,
  });

  it("reports each verifier agent's start with a token (answered of total), and nothing without one", async () => {
    const planned = await plan(["the tests pass", "the docs are updated"]);
    const result = await server.client.callTool(
      { name: "stratum_judge", arguments: judgeArgs(planned) },
      CallToolResultSchema,
      { onprogress: () => undefined, timeout: 60_000 },
    );
    expect(result.structuredContent).toMatchObject({ met: true });
    expect(progressOnWire().map(({ progressToken: _t, ...p }) => p)).toEqual([
      { progress: 0, total: 2, message: "verifying predicate 'p1' (1 of 2) with an agent" },
      { progress: 1, total: 2, message: "verifying predicate 'p2' (2 of 2) with an agent" },
    ]);
    const again = await plan(["the tests pass"]);
    const before = progressOnWire().length;
    const plain = await server.client.callTool({ name: "stratum_judge", arguments: judgeArgs(again) });
    expect(plain.structuredContent).toMatchObject({ met: true });
    expect(progressOnWire()).toHaveLength(before);
  }, 60_000);

  it("stops the verifier agent on cancel: its process gone, no answer, the client told at info, no turn recorded", async () => {
    await server.client.setLoggingLevel("info");
    const planned = await plan(["the tests pass", "it answers once released"]);
    const cancel = new AbortController();
    const seen: number[] = [];
    const outcome = server.client
      .callTool({ name: "stratum_judge", arguments: judgeArgs(planned) }, CallToolResultSchema, {
        signal: cancel.signal,
        onprogress: (p) => seen.push(p.progress),
        timeout: 60_000,
      })
      .then(
        () => "answered",
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      );
    // The second agent (the one that does not answer yet) has started.
    await until(() => seen.includes(1) && pids().length === 2, "the second verifier agent", 30_000);
    const pid = Number(pids()[1]);
    expect(alive(pid)).toBe(true);
    const cancelledAt = Date.now();
    cancel.abort("enough");
    expect(await outcome).toMatch(/enough|abort/i);
    await until(() => !alive(pid), "the verifier agent to be stopped", 10_000);
    console.log(`stratum_judge cancel -> verifier agent gone: ${Date.now() - cancelledAt} ms`);
    await until(() => logs.some((l) => l.level === "info"), "the cancelled call's log line", 10_000);
    expect(logs.find((l) => l.level === "info")?.data).toBe(
      "stratum_judge (cancelled by the client): cancelled by the client after 1 of 2 verifier agent(s) answered; no turn recorded",
    );
    // No answer to the cancelled request.
    const token = progressOnWire()[0]?.progressToken;
    expect(wire.some((m) => "id" in m && !("method" in m) && m.id === token)).toBe(false);
    // No turn was recorded: the next call, its agents answering, is the step's first turn.
    writeFileSync(`${log}.release`, "");
    const judged = await server.client.callTool({ name: "stratum_judge", arguments: judgeArgs(planned) });
    expect(judged.structuredContent).toMatchObject({ met: true, budget_consumed: { turns: 1 } });
  }, 60_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(done: () => boolean, what: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("verifierProgress", () => {
  it("rises with each heartbeat of an agent without reaching the next agent's start", () => {
    fc.assert(
      fc.property(fc.nat(20), fc.integer({ min: 1, max: 20 }), fc.nat(1000), (done, more, beats) => {
        const start = { done, total: done + more, predicate: "p" };
        const now = verifierProgress(start, beats, beats * 10);
        const next = verifierProgress(start, beats + 1, beats * 10 + 10);
        expect(next.progress).toBeGreaterThan(now.progress);
        expect(next.progress).toBeLessThan(done + 1);
        expect(now.progress).toBeGreaterThanOrEqual(done);
        expect(next.total).toBe(done + more);
      }),
    );
    expect(verifierProgress({ done: 1, total: 3, predicate: "p2" }, 2, 20)).toEqual({
      progress: 1 + 2 / 3,
      total: 3,
      message: "verifying predicate 'p2' (2 of 3) with an agent: running for 20 s",
    });
  });
});
