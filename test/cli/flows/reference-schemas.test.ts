// Every reference-compatible output of the flow commands validates against the JSON Schema the
// reference publishes for it (stratum-mcp/contracts at 0.2.50, recorded byte for byte in
// test/conformance/reference-schemas with their source): `query flows`, `query flow <id>`,
// `query gates` and the success line of `gate approve|reject|revise`, run through the real
// binaries (`bin/stratumc.cjs` and `bin/stratum-mcp.cjs`, which must answer alike) over flows made
// by the engine the MCP server runs (file store, system clock, random ids). Our extras are checked
// to stay outside the default outputs: `next` only with `gate --next`, finished flows only with
// `query flows --all`. The trace records (audit-record.v1) are checked in `query flow` and in the
// MCP tool `stratum_audit`.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020, { type ErrorObject } from "ajv/dist/2020";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { composeHost } from "../../../host/compose";
import type { StratumApi } from "../../../interpreter/api";
import { encodeWire, wireToPlain } from "../../../interpreter/wire/encode";
import { ensureBundle, REPO } from "../run-cli";
import { SPEC as HARNESS_SPEC, result, TestHome } from "./harness";

const SCHEMA_DIR = join(REPO, "test/conformance/reference-schemas");

/** `git ls-tree ecc1aa5 stratum-mcp/contracts/` of github.com/smartmemory/stratum (0.2.50). */
const BLOB_IDS: Readonly<Record<string, string>> = {
  "audit-record.v1.schema.json": "4e05c3e0dcdb0e4193adec399b19784de1432018",
  "build-stream-event.v0.2.6.schema.json": "0217088c940771c406be220f2ceb929e614bad2e",
  "flow-state.v1.schema.json": "5c098850ce7d6482c9ab1f0c1d8bd1a970b0e227",
  "gate-mutation.v1.schema.json": "d963973b5e28ea450376151e6cb2025fa1b15e54",
  "query-flows.v1.schema.json": "b29e326ece272fdbdd2178036a7f073ae28d78bc",
  "query-gates.v1.schema.json": "231a2e6ed6ac449e322757e699df06cb132555e8",
};

type SchemaName = "query-flows" | "flow-state" | "query-gates" | "gate-mutation" | "audit-record";

// Strict, so a schema keyword ajv would ignore is an error; union types (`["string", "null"]`) are
// what the schemas use; `_source` / `_roadmap` are annotations of build-stream-event.
const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
ajv.addKeyword("_source").addKeyword("_roadmap");
const schemaText = (file: string) => readFileSync(join(SCHEMA_DIR, file), "utf8");
for (const file of Object.keys(BLOB_IDS)) ajv.addSchema(JSON.parse(schemaText(file)), file);

/** The schema's errors for `data` as `<instance path> <message>` (additional properties named); [] = valid. */
function schemaErrors(name: SchemaName, data: unknown): string[] {
  const file = Object.keys(BLOB_IDS).find((f) => f.startsWith(`${name}.`)) ?? name;
  const validate = ajv.getSchema(file);
  if (validate === undefined) throw new Error(`no schema ${file}`);
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) =>
    e.keyword === "additionalProperties"
      ? `${e.instancePath} ${e.message}: ${String(e.params.additionalProperty)}`
      : `${e.instancePath} ${e.message}`,
  );
}

// --- running the binaries -------------------------------------------------------------------

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function spawnBin(bin: "stratumc" | "stratum-mcp", home: string, args: readonly string[]): Run {
  const r = spawnSync(process.execPath, [join(REPO, `bin/${bin}.cjs`), ...args], {
    encoding: "utf8",
    env: { ...process.env, STRATUM_HOME: home },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A read-only command through both binaries: they must answer alike; the answer must be exit 0, JSON. */
function query(home: string, args: readonly string[]): unknown {
  const a = spawnBin("stratumc", home, args);
  const b = spawnBin("stratum-mcp", home, args);
  expect(b).toEqual(a);
  expect([a.code, a.stderr]).toEqual([0, ""]);
  return JSON.parse(a.stdout);
}

// --- the flows ------------------------------------------------------------------------------

/**
 * The harness's flows — `reviewed`: an infer step (2 attempts) and a gate (max_rounds 1);
 * `routed`: a gate routing approve to a `flag` gate and kill to a cleanup step — plus `flagged`: a `flag` gate the policy loop
 * approves on the way to `publish` (a PolicyRecord in an unfinished flow). `parent` runs the
 * sub-flow `child`.
 */
const SPEC = `${HARNESS_SPEC}  flagged:
    input: {}
    steps:
      - id: prepare
        intent: "Prepare"
      - id: check
        function: second_look
        policy: flag
        on_approve: publish
        on_revise: prepare
        on_kill: ~
      - id: publish
        intent: "Publish"
  child:
    input: {}
    steps:
      - id: inner
        intent: "Do the inner work"
  parent:
    input: {}
    steps:
      - id: sub
        flow: child
      - id: after
        intent: "After the child"
`;

const DRAFT = result('{"text": "hello"}');

async function plan(api: StratumApi, flow: string): Promise<string> {
  const r = await api.plan({ spec: SPEC, flow });
  if (typeof r.flow_id !== "string") throw new Error(`plan ${flow}: ${JSON.stringify(wireToPlain(r))}`);
  return r.flow_id;
}

async function gate(api: StratumApi, flowId: string, stepId: string, outcome: string): Promise<void> {
  const r = await api.gateResolve({
    flow_id: flowId,
    step_id: stepId,
    outcome,
    rationale: "",
    resolved_by: "human",
  });
  if (r.status === "error") throw new Error(JSON.stringify(wireToPlain(r)));
}

/** A `reviewed` flow waiting at its gate. */
async function atReview(api: StratumApi): Promise<string> {
  const id = await plan(api, "reviewed");
  await api.stepDone({ flow_id: id, step_id: "draft", result: DRAFT });
  return id;
}

/** A `routed` flow waiting at its gate `review`. */
async function routedAtReview(api: StratumApi): Promise<string> {
  const id = await plan(api, "routed");
  await api.stepDone({ flow_id: id, step_id: "prepare", result: result('"ready"') });
  return id;
}

/** One flow in every state a kept flow can be in; name (FLOW_NAMES) → id. */
async function zoo(api: StratumApi): Promise<Record<string, string>> {
  const running = await plan(api, "reviewed");
  const awaiting = await atReview(api);
  const complete = await atReview(api);
  await gate(api, complete, "review", "approve");
  const killed = await atReview(api);
  await gate(api, killed, "review", "kill");
  const cleanup = await routedAtReview(api); // killed, running its named on_kill step
  await gate(api, cleanup, "review", "kill");
  const exhausted = await plan(api, "reviewed");
  await api.stepDone({ flow_id: exhausted, step_id: "draft", result: result('{"text": "bad"}') });
  const stopped = await api.stepDone({
    flow_id: exhausted,
    step_id: "draft",
    result: result('{"text": "bad"}'),
  });
  expect(stopped.error_type).toBe("retries_exhausted");
  const revised = await routedAtReview(api); // a revise round archived in `rounds`
  await gate(api, revised, "review", "revise");
  const skipped = await plan(api, "routed"); // a SkipRecord, waiting at the gate
  const skip = await api.skipStep({ flow_id: skipped, step_id: "prepare", reason: "nothing to prepare" });
  expect(skip.status).toBe("await_gate");
  const policyDone = await routedAtReview(api); // approve → flag gate auto-approved → complete
  await gate(api, policyDone, "review", "approve");
  const policyRunning = await plan(api, "flagged");
  const flagged = await api.stepDone({ flow_id: policyRunning, step_id: "prepare", result: result("1") });
  expect(flagged).toMatchObject({ status: "execute_step", step_id: "publish" });
  const planned = wireToPlain(await api.plan({ spec: SPEC, flow: "parent" })) as Record<string, unknown>;
  const [parent, child] = [String(planned.parent_flow_id), String(planned.child_flow_id)];
  const childDone = await api.stepDone({ flow_id: child, step_id: "inner", result: result('"inner done"') });
  expect(childDone.status).toBe("complete");
  // The agent reports the child's completion payload as the sub-flow step's result (JSON, as over MCP).
  const afterChild = await api.stepDone({
    flow_id: parent,
    step_id: "sub",
    result: result(encodeWire(childDone)),
  });
  expect(afterChild).toMatchObject({ status: "execute_step", step_id: "after" });
  return {
    running,
    awaiting,
    complete,
    killed,
    cleanup,
    exhausted,
    revised,
    skipped,
    policyDone,
    policyRunning,
    parent,
    child,
  };
}

const FLOW_NAMES = [
  "running",
  "awaiting",
  "complete",
  "killed",
  "cleanup",
  "exhausted",
  "revised",
  "skipped",
  "policyDone",
  "policyRunning",
  "parent",
  "child",
];

/** The flows the reference still has on disk (it deletes finished and exhausted ones). */
const IN_PROGRESS = ["running", "awaiting", "cleanup", "revised", "skipped", "policyRunning", "parent"];

// --- the tests ------------------------------------------------------------------------------

beforeAll(() => ensureBundle());

describe("the recorded schemas", () => {
  it("are the reference's files, byte for byte (git blob ids at ecc1aa5)", () => {
    const recorded = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith(".json"));
    expect(recorded.sort()).toEqual(Object.keys(BLOB_IDS).sort());
    for (const [file, blob] of Object.entries(BLOB_IDS)) {
      const bytes = readFileSync(join(SCHEMA_DIR, file));
      const id = createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
      expect([file, id]).toEqual([file, blob]);
    }
  });

  it("all compile as draft 2020-12 in strict mode", () => {
    for (const file of Object.keys(BLOB_IDS)) expect(ajv.getSchema(file)).toBeTypeOf("function");
  });
});

describe("query with no flows", () => {
  const t = new TestHome();
  afterAll(() => t.dispose());

  it("query flows, query flows --all and query gates print [] (valid)", () => {
    for (const args of [
      ["query", "flows"],
      ["query", "flows", "--all"],
      ["query", "gates"],
    ]) {
      const out = query(t.home, args);
      expect(out).toEqual([]);
      expect(schemaErrors(args[1] === "gates" ? "query-gates" : "query-flows", out)).toEqual([]);
    }
  });
});

describe("query over flows in every state", () => {
  const t = new TestHome();
  let ids: Record<string, string> = {};
  let nameOf = new Map<string, string>();
  let api: StratumApi;
  beforeAll(async () => {
    api = composeHost(t.host()).api();
    ids = await zoo(api);
    nameOf = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
  });
  afterAll(() => t.dispose());

  it("query flows lists exactly the flows in progress, and validates against query-flows.v1", () => {
    const out = query(t.home, ["query", "flows"]) as { flow_id: string; status: string }[];
    expect(schemaErrors("query-flows", out)).toEqual([]);
    expect(out.map((f) => nameOf.get(f.flow_id)).sort()).toEqual([...IN_PROGRESS].sort());
    expect(Object.fromEntries(out.map((f) => [nameOf.get(f.flow_id), f.status]))).toEqual({
      running: "running",
      awaiting: "awaiting_gate",
      cleanup: "killed",
      revised: "running",
      skipped: "awaiting_gate",
      policyRunning: "running",
      parent: "running",
    });
  });

  it("query flows --all adds the finished flows; only `exhausted` lies outside the schema's enum", () => {
    const out = query(t.home, ["query", "flows", "--all"]) as { flow_id: string; status: string }[];
    expect(out.map((f) => nameOf.get(f.flow_id)).sort()).toEqual([...FLOW_NAMES].sort());
    const statuses = Object.fromEntries(out.map((f) => [nameOf.get(f.flow_id), f.status]));
    expect(statuses).toMatchObject({
      complete: "complete",
      killed: "killed",
      exhausted: "exhausted",
      policyDone: "complete",
      child: "complete",
    });
    const exhaustedAt = out.findIndex((f) => f.flow_id === ids.exhausted);
    expect(schemaErrors("query-flows", out)).toEqual([
      `/${exhaustedAt}/status must be equal to one of the allowed values`,
    ]);
  });

  it("query gates validates against query-gates.v1 and lists the unfinished flows at a gate", () => {
    const out = query(t.home, ["query", "gates"]) as { flow_id: string; step_id: string; timeout: unknown }[];
    expect(schemaErrors("query-gates", out)).toEqual([]);
    expect(out.map((g) => [nameOf.get(g.flow_id), g.step_id, g.timeout]).sort()).toEqual([
      ["awaiting", "review", 3600],
      ["skipped", "review", 3600],
    ]);
  });

  interface Detail {
    status: string;
    records: { type: string; child_flow_id?: unknown }[];
    rounds: { type: string }[][];
  }
  const details = new Map<string, Detail>();
  /** `query flow <id>` of the named flow (both binaries, once). */
  const detail = (name: string): Detail => {
    let d = details.get(name);
    if (d === undefined) {
      d = query(t.home, ["query", "flow", ids[name] ?? ""]) as Detail;
      details.set(name, d);
    }
    return d;
  };

  it.each(FLOW_NAMES)(
    "query flow <%s> validates against flow-state.v1 (two documented exceptions)",
    (name) => {
      const out = detail(name);
      const expected: string[] = [];
      // Our own status, for a flow the reference would have deleted (it answers NOT_FOUND there).
      if (name === "exhausted") expected.push("/status must be equal to one of the allowed values");
      // The reference's PolicyRecord (type "policy"), which its own schema leaves out (README.md).
      out.records.forEach((r, i) => {
        if (r.type === "policy")
          expected.push(`/records/${i}/type must be equal to one of the allowed values`);
      });
      expect(schemaErrors("flow-state", out)).toEqual(expected);
      // Every record, current and archived, is an audit-record.v1 record, except policy records.
      for (const record of [...out.records, ...out.rounds.flat()])
        expect([record.type, schemaErrors("audit-record", record).length === 0]).toEqual([
          record.type,
          record.type !== "policy",
        ]);
    },
  );

  it("the flows have every record type, a round and a sub-flow step record", () => {
    expect(detail("skipped").records.map((r) => r.type)).toEqual(["skip"]);
    expect(detail("policyRunning").records.map((r) => r.type)).toEqual(["step", "policy"]);
    expect(detail("revised").rounds).toHaveLength(1);
    expect(detail("parent").records[0]?.child_flow_id).toBe(ids.child);
  });

  it("the trace of the MCP tool stratum_audit holds audit-record.v1 records (policy records aside)", async () => {
    for (const [name, id] of Object.entries(ids)) {
      const audit = wireToPlain(await api.audit({ flow_id: id })) as { trace: { type: string }[] };
      for (const record of audit.trace)
        expect([name, record.type, schemaErrors("audit-record", record).length === 0]).toEqual([
          name,
          record.type,
          record.type !== "policy",
        ]);
    }
  });

  it("an unknown flow is one line of NOT_FOUND, exit 1, from both binaries", () => {
    const expected = {
      code: 1,
      stdout: `{"error": {"code": "NOT_FOUND", "message": "Flow 'nope' not found"}}\n`,
      stderr: "",
    };
    expect(spawnBin("stratumc", t.home, ["query", "flow", "nope"])).toEqual(expected);
    expect(spawnBin("stratum-mcp", t.home, ["query", "flow", "nope"])).toEqual(expected);
  });
});

describe("gate approve|reject|revise", () => {
  const t = new TestHome();
  let api: StratumApi;
  beforeAll(() => {
    api = composeHost(t.host()).api();
  });
  afterAll(() => t.dispose());

  /** Each case: a way to bring a flow to a gate, the CLI words after the ids, the expected `result`. */
  const CASES: readonly [string, (api: StratumApi) => Promise<string>, readonly string[], string][] = [
    ["approve, null on_approve", atReview, ["approve", "review", "--note", "LGTM"], "complete"],
    ["reject, null on_kill", atReview, ["reject", "review", "--note", "not ready"], "killed"],
    ["revise", atReview, ["revise", "review", "--resolved-by", "agent"], "execute_step"],
    ["approve, routed", routedAtReview, ["approve", "review"], "execute_step"],
    [
      "reject, routed to cleanup",
      routedAtReview,
      ["reject", "review", "--resolved-by", "system"],
      "execute_step",
    ],
    [
      "revise beyond max_rounds",
      async (a) => {
        const id = await atReview(a);
        await gate(a, id, "review", "revise");
        await a.stepDone({ flow_id: id, step_id: "draft", result: DRAFT });
        return id;
      },
      ["revise", "review"],
      "max_rounds_exceeded",
    ],
  ];

  for (const bin of ["stratumc", "stratum-mcp"] as const) {
    it.each(CASES)(`${bin} gate: %s → exit 0, gate-mutation.v1`, async (_name, setup, words, expected) => {
      const id = await setup(api);
      const [action, stepId, ...options] = words;
      const r = spawnBin(bin, t.home, ["gate", action ?? "", id, stepId ?? "", ...options]);
      expect([r.code, r.stderr]).toEqual([0, ""]);
      const out = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(schemaErrors("gate-mutation", out)).toEqual([]);
      expect(out).toEqual({
        _schema_version: "1",
        ok: true,
        flow_id: id,
        step_id: "review",
        outcome: action === "reject" ? "kill" : action,
        result: expected,
      });
    });
  }

  it("--next adds `next`, the only key outside gate-mutation.v1", async () => {
    for (const bin of ["stratumc", "stratum-mcp"] as const) {
      const id = await routedAtReview(api);
      const r = spawnBin(bin, t.home, ["gate", "approve", id, "review", "--next"]);
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(out).toMatchObject({ result: "execute_step", next: "complete" });
      expect(schemaErrors("gate-mutation", out)).toEqual([" must NOT have additional properties: next"]);
    }
  });

  it("conflicts (exit 2) and errors (exit 1) have the shapes the schema's description names", async () => {
    const done = await atReview(api);
    await gate(api, done, "review", "approve");
    const atDraft = await plan(api, "reviewed");
    for (const bin of ["stratumc", "stratum-mcp"] as const) {
      const conflict = spawnBin(bin, t.home, ["gate", "approve", done, "review"]);
      expect(conflict.code).toBe(2);
      expect(JSON.parse(conflict.stdout)).toEqual({
        conflict: true,
        flow_id: done,
        step_id: "review",
        detail: "Flow is already complete",
      });
      const wrong = spawnBin(bin, t.home, ["gate", "approve", atDraft, "review"]);
      expect(wrong.code).toBe(2);
      expect(JSON.parse(wrong.stdout)).toEqual({
        conflict: true,
        flow_id: atDraft,
        step_id: "review",
        detail: "Expected gate step 'draft', got 'review'",
      });
      for (const [args, code, message] of [
        [["gate", "reject", "nope", "review"], "NOT_FOUND", "Flow 'nope' not found"],
        [
          ["gate", "approve", atDraft, "draft"],
          "not_a_gate_step",
          "Step 'draft' is not a gate step (mode='infer')",
        ],
      ] as const) {
        const r = spawnBin(bin, t.home, args);
        expect(r.code).toBe(1);
        expect(JSON.parse(r.stdout)).toEqual({ error: { code, message } });
      }
    }
  });
});
