// A fuzz test of the MCP server's wire. One real server process (the built bundle over
// stdio) gets random and mutated JSON-RPC lines, garbage, random argument shapes for every tool and
// two interleaved streams of requests, cut into random chunks. Properties: every request line with
// an id gets exactly one answer per line with that id; the server still answers a ping afterwards;
// no answer carries another request's data; no answer is -32603, a zod dump or a stack trace; the
// server writes only inside its temporary STRATUM_HOME (and the drafts stratum_draft_pipeline is
// asked to write inside its working directory).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawSession, sameId } from "../mcp/support/raw-session";
import { leaks, type Sandbox, sandbox, tinySpec } from "./mcp-support";

const RUNS = Number(process.env.HOSTILE_FUZZ_RUNS ?? 120);

const TOOLS: Record<string, readonly string[]> = {
  stratum_validate: ["spec"],
  stratum_plan: ["spec", "flow", "inputs"],
  stratum_step_done: ["flow_id", "step_id", "result"],
  stratum_audit: ["flow_id"],
  stratum_gate_resolve: ["flow_id", "step_id", "outcome", "rationale", "resolved_by"],
  stratum_check_timeouts: ["flow_id"],
  stratum_skip_step: ["flow_id", "step_id", "reason"],
  stratum_commit: ["flow_id", "label"],
  stratum_revert: ["flow_id", "label"],
  stratum_iteration_start: ["flow_id", "step_id"],
  stratum_iteration_report: ["flow_id", "step_id", "result"],
  stratum_iteration_abort: ["flow_id", "step_id", "reason"],
  stratum_resume: ["flow_id"],
  stratum_parallel_done: ["flow_id", "step_id", "task_results", "merge_status"],
  stratum_parallel_start: ["flow_id", "step_id"],
  stratum_parallel_poll: ["flow_id", "step_id"],
  stratum_parallel_advance: ["flow_id", "step_id", "merge_status"],
  stratum_list_workflows: ["workflows_dir"],
  stratum_compile_speckit: ["tasks_dir", "flow_name"],
  stratum_draft_pipeline: ["draft", "project_dir"],
  stratum_fuzz: ["spec", "flow", "runs", "seed"],
};
const TOOL_NAMES = Object.keys(TOOLS);

/** Directory arguments stay inside the server's working directory (the sandbox's `work`). */
const SAFE_DIRS = [".", "sub", "sub/deeper", "missing"];
const TOKEN = /tok-\d+/g;

const anyJson = fc.jsonValue({ maxDepth: 3 });

/** A value for a parameter: usually plausible, often of a wrong shape. */
function argumentValue(tool: string, name: string): fc.Arbitrary<unknown> {
  if (name.endsWith("_dir")) return fc.oneof(fc.constantFrom(...SAFE_DIRS), fc.integer(), fc.constant(null));
  if (name === "spec") {
    // stratum_fuzz on a runnable spec is slow by design: only the other tools get one.
    const specs = tool === "stratum_fuzz" ? [fc.string()] : [fc.constant(tinySpec()), fc.string()];
    return fc.oneof(...specs, anyJson);
  }
  if (name === "runs") return fc.oneof(fc.integer({ min: -3, max: 3 }), anyJson);
  if (name === "flow") return fc.oneof(fc.constant("main"), fc.string(), anyJson);
  return fc.oneof(fc.string(), anyJson, fc.dictionary(fc.string(), anyJson, { maxKeys: 3 }));
}

/** Arguments of random shape for a tool: some of its parameters, odd values, unknown keys, or not an object. */
const toolArguments = fc.constantFrom(...TOOL_NAMES).chain((tool) =>
  fc
    .tuple(
      fc.record(Object.fromEntries((TOOLS[tool] ?? []).map((p) => [p, argumentValue(tool, p)])), {
        requiredKeys: [],
      }),
      fc.dictionary(fc.string({ maxLength: 6 }), anyJson, { maxKeys: 2 }),
      fc.oneof(
        { weight: 8, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.oneof(fc.string(), fc.integer(), fc.array(anyJson), fc.constant(null)) },
      ),
    )
    .map(([known, extra, replaced]) => ({
      name: tool,
      arguments: replaced === undefined ? { ...extra, ...known } : replaced,
    })),
);

/** What one generated line is, before ids are given out. */
type Item =
  | { readonly kind: "garbage"; readonly text: string }
  | {
      readonly kind: "mutated";
      readonly base: Record<string, unknown>;
      readonly at: number;
      readonly cut: number;
      readonly insert: string;
    }
  | { readonly kind: "call"; readonly params: unknown }
  | { readonly kind: "echo"; readonly stream: "a" | "b"; readonly tool: string }
  | { readonly kind: "odd"; readonly message: unknown };

const baseMessage = fc.oneof(
  fc.constant({ method: "tools/list" }),
  fc.constant({ method: "ping" }),
  toolArguments.map((params) => ({ method: "tools/call", params })),
);

const item: fc.Arbitrary<Item> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc
      .string({ unit: "binary", maxLength: 40 })
      .map((text) => ({ kind: "garbage" as const, text })),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        baseMessage,
        fc.nat(),
        fc.nat({ max: 3 }),
        fc.constantFrom("", "{", "}", '"', ",", "]", "1", "\\u0000", "null"),
      )
      .map(([base, at, cut, insert]) => ({ kind: "mutated" as const, base, at, cut, insert })),
  },
  { weight: 4, arbitrary: toolArguments.map((params) => ({ kind: "call" as const, params })) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.constantFrom("a" as const, "b" as const),
        fc.constantFrom("stratum_audit", "stratum_resume", "stratum_check_timeouts"),
      )
      .map(([stream, tool]) => ({ kind: "echo" as const, stream, tool })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record(
        {
          jsonrpc: fc.oneof(fc.constant("2.0"), anyJson),
          id: fc.oneof(
            fc.constant(null),
            fc.boolean(),
            fc.array(fc.integer(), { maxLength: 2 }),
            fc.double(),
          ),
          method: fc.oneof(
            fc.constantFrom(
              "initialize",
              "tools/call",
              "tools/list",
              "ping",
              "resources/list",
              "notifications/cancelled",
            ),
            anyJson,
          ),
          params: anyJson,
        },
        { requiredKeys: [] },
      )
      .map((message) => ({ kind: "odd" as const, message })),
  },
);

describe("the MCP wire under random input", () => {
  let box: Sandbox;
  let server: RawSession;
  let counter = 0;
  /** Every line written (as the server splits them). */
  const written: string[] = [];
  /** The tokens each id's request carried. */
  const tokensOf = new Map<string, Set<string>>();

  beforeAll(async () => {
    box = sandbox("stratum-hostile-fuzz-");
    server = new RawSession(box);
    await server.initialize();
  });

  afterAll(async () => {
    try {
      await server.kill();
    } finally {
      box.dispose();
    }
  });

  function lineOf(it: Item): string {
    const n = counter++;
    const id = `id-${n}`;
    switch (it.kind) {
      case "garbage":
        return it.text;
      case "mutated": {
        const text = JSON.stringify({ jsonrpc: "2.0", id, ...it.base });
        const at = it.at % (text.length + 1);
        return text.slice(0, at) + it.insert + text.slice(at + it.cut);
      }
      case "call":
        return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: it.params });
      case "echo": {
        const token = `tok-${n}`;
        tokensOf.set(JSON.stringify(`${it.stream}-${n}`), new Set([token]));
        return JSON.stringify({
          jsonrpc: "2.0",
          id: `${it.stream}-${n}`,
          method: "tools/call",
          params: { name: it.tool, arguments: { flow_id: token } },
        });
      }
      case "odd":
        return JSON.stringify(it.message) ?? "null";
    }
  }

  /** The ids of the request lines among these (a line the server takes as a request with an id). */
  function requestIds(lines: readonly string[]): unknown[] {
    const ids: unknown[] = [];
    for (const line of lines) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
      const m = value as Record<string, unknown>;
      if (!("method" in m)) continue;
      if (typeof m.id === "string" || typeof m.id === "number") ids.push(m.id);
    }
    return ids;
  }

  it("answers every request exactly once, with its own data, and keeps serving", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { minLength: 1, maxLength: 14 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (items, cuts) => {
          const lines = items
            .map(lineOf)
            .flatMap((l) => l.split("\n"))
            .map((l) => l.replace(/\r$/, ""));
          const text = `${lines.join("\n")}\n`;
          written.push(...lines);
          // Random chunking: the same bytes, cut anywhere (inside a line or a UTF-8 sequence too).
          const bytes = Buffer.from(text, "utf8");
          const points = [...new Set(cuts.map((c) => c % bytes.length))].sort((x, y) => x - y);
          let from = 0;
          for (const p of [...points, bytes.length]) {
            if (p > from) server.write(bytes.subarray(from, p));
            from = Math.max(from, p);
          }
          const ids = requestIds(written);
          await server.until(
            () => ids.every((id) => server.answers(id).length >= 1),
            `answers to ${ids.length} requests`,
            30_000,
          );
          const probe = `probe-${counter++}`;
          const pong = await server.request(probe, "ping");
          expect(pong.result).toEqual({});
        },
      ),
      { numRuns: RUNS, seed: Number(process.env.HOSTILE_FUZZ_SEED ?? 13), endOnFailure: true },
    );

    // Let stragglers arrive: the server answers everything before it exits.
    expect(await server.closeInput()).toBe(0);

    // Exactly one answer per request line with that id (a reused in-flight id gets its own error).
    const counts = new Map<string, number>();
    for (const id of requestIds(written))
      counts.set(JSON.stringify(id), (counts.get(JSON.stringify(id)) ?? 0) + 1);
    for (const [key, count] of counts) {
      expect(server.answers(JSON.parse(key)).length, `answers to ${key}`).toBe(count);
    }
    // Every answer carries only its own request's tokens; an echo request gets its own back.
    for (const m of server.messages) {
      const own = tokensOf.get(JSON.stringify(m.id)) ?? new Set<string>();
      const seen = JSON.stringify(m).match(TOKEN) ?? [];
      for (const token of seen)
        expect(own.has(token), `${token} in the answer to ${JSON.stringify(m.id)}`).toBe(true);
      if (own.size > 0 && m.result !== undefined) {
        for (const token of own)
          expect(JSON.stringify(m), `answer to ${JSON.stringify(m.id)}`).toContain(token);
      }
      if ("method" in m) continue;
      expect(sameId(m.id, null) || typeof m.id === "string" || typeof m.id === "number").toBe(true);
    }
    expect(leaks(server.lines.join("\n"))).toEqual([]);
    for (const line of server.lines) expect(JSON.parse(line).jsonrpc, line).toBe("2.0");
    expect(server.stderr).toBe("");

    // Nothing written outside the store, except drafts inside the working directory.
    const outside = box
      .tree()
      .filter(
        (p) =>
          !(p === "home" || p.startsWith("home/")) &&
          !/^work(\/sub(\/deeper)?|\/missing)?$/.test(p) &&
          !/^work(\/[^/]+)*\/\.stratum(\/pipeline-draft\.json)?$/.test(p),
      );
    expect(outside).toEqual([]);
  }, 240_000);
});
