// Every counterexample the corpus produces reproduces its finding when replayed against the real
// interpreter, and replaying its calls through the built stratum-mcp over stdio (the MCP SDK
// client) gives the same responses, flow ids and durations aside.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FuzzFinding,
  fuzzSpec,
  fuzzTransport,
  type Plain,
  replayCounterexample,
  type Transport,
} from "../../fuzzer/index";
import type { FlowEvent } from "../../interpreter/index";

import { type RunningServer, startServer, tempDir } from "../mcp/support/server";
import { loadCorpus } from "./support/corpus";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Responses with flow ids and timings blanked (they differ between engines by design). */
function normalized(v: unknown): unknown {
  if (typeof v === "string") return UUID.test(v) ? "<id>" : v;
  if (Array.isArray(v)) return v.map(normalized);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v as Plain).map(([k, x]) => [k, k.endsWith("duration_ms") ? 0 : normalized(x)]),
    );
  }
  return v;
}

function mcpTransport(client: Client): Transport {
  return async (tool, args) => {
    // Asks for the call's typed events, as `stratumc replay --server` does (docs/guides/fuzzing.md).
    const result = await client.callTool({ name: tool, arguments: args, _meta: { "stratumc/events": true } });
    const content = result.content as { type: string; text: string }[];
    const events = result._meta?.["stratumc/events"];
    return {
      response: JSON.parse(content[0]?.text ?? "{}") as Plain,
      events: Array.isArray(events) ? (events as FlowEvent[]) : null,
    };
  };
}

interface Case {
  readonly name: string;
  readonly text: string;
  readonly finding: FuzzFinding;
}

describe("replaying the corpus' counterexamples", () => {
  const cases: Case[] = [];
  const home = tempDir("stratum-fuzz-replay-");
  let server: RunningServer;

  beforeAll(async () => {
    for (const spec of loadCorpus()) {
      const { report } = await fuzzSpec(spec.text);
      for (const finding of report?.findings ?? []) {
        if (finding.counterexample !== null) cases.push({ name: spec.name, text: spec.text, finding });
      }
    }
    server = await startServer({ cwd: home.path, home: home.path });
  }, 240_000);

  afterAll(async () => {
    await server?.closeInput();
    home.dispose();
  });

  it("has a counterexample for every finding about something a run did", () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it("reproduces every finding in process and gives the same responses through stratum-mcp", async () => {
    const problems: string[] = [];
    for (const c of cases) {
      const expect_ = { code: c.finding.code, flow: c.finding.flow, step: c.finding.step };
      const calls = c.finding.counterexample!.calls;
      const local = await replayCounterexample(c.text, calls, fuzzTransport(c.text), expect_);
      const remote = await replayCounterexample(c.text, calls, mcpTransport(server.client), expect_);
      const label = `${c.name} ${c.finding.code}`;
      if (!local.reproduced) problems.push(`${label}: not reproduced in process`);
      if (!remote.reproduced) problems.push(`${label}: not reproduced through stratum-mcp`);
      const a = JSON.stringify(normalized(local.steps.map((s) => s.response)));
      const b = JSON.stringify(normalized(remote.steps.map((s) => s.response)));
      if (a !== b)
        problems.push(
          `${label}: responses differ\n  in process: ${a.slice(0, 600)}\n  stratum-mcp: ${b.slice(0, 600)}`,
        );
    }
    expect(problems).toEqual([]);
  }, 240_000);
});
