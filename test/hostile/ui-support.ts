// For the hostile tests and the bench of `stratumc ui`: a flow of many steps written straight into
// a file store (driving 10,000 steps through the engine would rewrite the growing flow file
// 10,000 times), every step but the last done with an output and a trace record, the last a gate
// the flow waits at (or, as a long flow at its gate almost always is on the file store, its snapshot
// and then its last calls run by the engine as journal entries); and a plain HTTP server on another port that records what reaches it.
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { composeHostLazily } from "../../host/index";
import { fromJsonValue } from "../../stdlib/index";

/** A spec of `steps` steps: function steps s0 … s(n-2), then the gate `approve`. */
function bigFlowSpec(steps: number): string {
  const lines = [
    'version: "0.2"',
    "contracts:",
    "  R:",
    "    name: {type: string}",
    "functions:",
    "  f:",
    "    mode: infer",
    '    intent: "do one part"',
    "    input: {}",
    "    output: R",
    "  review:",
    "    mode: gate",
    "flows:",
    "  main:",
    "    input: {}",
    "    steps:",
  ];
  for (let i = 0; i < steps - 1; i++)
    lines.push(`      - id: s${i}`, "        function: f", "        inputs: {}");
  lines.push(
    "      - id: approve",
    "        function: review",
    "        on_approve: ~",
    "        on_revise: s0",
    "        on_kill: ~",
  );
  return `${lines.join("\n")}\n`;
}

/** Writes a flow of `steps` steps waiting at its final gate into `home`'s file store; its id. */
export function writeBigFlow(home: string, steps: number): string {
  const flowId = randomUUID();
  const outputs: Record<string, unknown> = {};
  const records: Record<string, unknown>[] = [];
  const attempts: Record<string, number> = {};
  for (let i = 0; i < steps - 1; i++) {
    const id = `s${i}`;
    outputs[id] = { name: `part ${i} of the plan, done` };
    attempts[id] = 1;
    records.push({
      step_id: id,
      function_name: "f",
      attempts: 1,
      duration_ms: 5,
      type: "step",
      round: 0,
      round_start_step_id: null,
      agent: null,
      step_mode: "function",
      child_flow_id: null,
    });
  }
  const state = {
    flow_id: flowId,
    flow_name: "main",
    raw_spec: bigFlowSpec(steps),
    inputs: {},
    step_outputs: outputs,
    records,
    attempts,
    current_idx: steps - 1,
    checkpoints: {},
    round: 0,
    rounds: [],
    round_start_step_id: null,
    terminal_status: null,
    iterations: {},
    archived_iterations: [],
    active_iteration: null,
    iteration_outcome: {},
    iteration_best: {},
    iteration_accumulator: {},
    parent_flow_id: null,
    parent_step_id: null,
    active_child_flow_id: null,
    child_audits: {},
    spec_checksum: "",
    parallel_tasks: {},
    cwd: home,
    judge_history: {},
    judge_outcome: {},
    synthetic: false,
    budget_state: null,
    revision: 1,
    status: "running",
  };
  mkdirSync(join(home, "flows"), { recursive: true });
  writeFileSync(join(home, "flows", `${flowId}.json`), JSON.stringify(state, null, 2));
  return flowId;
}

/**
 * writeBigFlow's flow stopped `calls` steps before its gate, then those steps run by real calls of
 * the engine on the file store: the flow waits at its gate with its snapshot and `calls` journal
 * entries (the store writes a snapshot only once the journal is as large as the snapshot).
 */
export async function writeJournaledBigFlow(home: string, steps: number, calls: number): Promise<string> {
  const flowId = writeBigFlow(home, steps);
  const at = steps - 1 - calls;
  const file = join(home, "flows", `${flowId}.json`);
  const state = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  state.records = (state.records as unknown[]).slice(0, at);
  state.current_idx = at;
  for (const map of [state.step_outputs, state.attempts] as Record<string, unknown>[])
    for (let i = at; i < steps; i++) delete map[`s${i}`];
  writeFileSync(file, JSON.stringify(state, null, 2));
  const host = await composeHostLazily({ cwd: home, env: { ...process.env, STRATUM_HOME: home } });
  const api = host.api();
  for (let i = at; i < steps - 1; i++) {
    const done = (await api.stepDone({
      flow_id: flowId,
      step_id: `s${i}`,
      result: fromJsonValue({ name: `part ${i} of the plan, done` }),
    })) as { status?: unknown };
    const expected = i + 1 < steps - 1 ? "execute_step" : "await_gate";
    if (done.status !== expected) throw new Error(`step s${i}: ${JSON.stringify(done)}`);
  }
  await host.close();
  return flowId;
}

export interface SeenRequest {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

/** An HTTP server on another loopback port that answers `page` at `/` and records every request. */
export async function startOtherServer(page: string): Promise<{
  readonly origin: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((request, response) => {
    seen.push({ url: request.url ?? "", headers: request.headers });
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(request.url === "/" ? page : "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
