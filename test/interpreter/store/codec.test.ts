// The flow file format (docs/reference/runtime.md §14.1): exact Python json.dumps(indent=2) layout, decoding of
// our files and the reference's, refusal of damaged files, and a round-trip property.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FlowState } from "../../../interpreter/base/flow-state";
import { decodeFlowState, encodeFlowState } from "../../../interpreter/store/codec";
import { makeDict } from "../../../stdlib/values/dict";
import { PyDict, PyFloat } from "../../../stdlib/values/value";
import { arbitraryFlowState } from "../support/arbitrary-state";

const FIXTURES = join(__dirname, "fixtures");
const fixture = (name: string) => readFileSync(join(FIXTURES, name), "utf8");

/** The state of fixtures/python-layout.json, which Python's json.dumps(…, indent=2) wrote. */
function layoutState(): FlowState {
  return {
    flow_id: "6f1c0d2e-8a3b-4c5d-9e7f-0123456789ab",
    flow_name: "review",
    raw_spec: 'version: "0.2"\n# café ✓ 😀\n',
    inputs: makeDict([
      ["topic", "Straße"],
      ["n", 12345678901234567890n],
      ["ratio", new PyFloat(0.1)],
      ["whole", new PyFloat(2)],
      ["tiny", new PyFloat(1e-7)],
      ["big", new PyFloat(1e16)],
      ["nothing", null],
      [
        "nested",
        makeDict([
          ["empty", new PyDict()],
          ["list", []],
        ]),
      ],
    ]),
    step_outputs: new Map([
      ["draft", makeDict([["text", 'tab\there "q" \\ \x7f \x01']])],
      ["__proto__", null],
    ]),
    records: [
      {
        step_id: "draft",
        function_name: "write",
        attempts: 1,
        duration_ms: 12,
        type: "step",
        round: 0,
        round_start_step_id: null,
        agent: null,
        step_mode: "function",
        child_flow_id: null,
        cache_hit: false,
        cache_key: null,
      },
    ],
    attempts: new Map([["draft", 1]]),
    current_idx: 1,
    checkpoints: new Map(),
    round: 0,
    rounds: [],
    round_start_step_id: null,
    terminal_status: null,
    iterations: new Map(),
    archived_iterations: [],
    active_iteration: null,
    iteration_outcome: new Map(),
    iteration_best: new Map(),
    iteration_accumulator: new Map(),
    parent_flow_id: null,
    parent_step_id: null,
    active_child_flow_id: null,
    child_audits: new Map(),
    spec_checksum: "",
    parallel_tasks: new Map(),
    cwd: "/work/project",
    judge_history: new Map(),
    judge_outcome: new Map(),
    synthetic: false,
    budget_state: null,
    review_log: new Map(),
    revision: 3,
    status: "awaiting_gate",
  };
}

function decoded(text: string): FlowState {
  const result = decodeFlowState(text);
  if (!result.ok) throw new Error(`not decoded: ${result.reason}`);
  return result.state;
}

describe("encodeFlowState", () => {
  it("writes Python's json.dumps(indent=2) layout byte for byte", () => {
    expect(encodeFlowState(layoutState())).toBe(fixture("python-layout.json"));
  });

  it("ends without a newline, with revision and status as the last keys", () => {
    expect(encodeFlowState(layoutState()).endsWith('  "revision": 3,\n  "status": "awaiting_gate"\n}')).toBe(
      true,
    );
  });
});

describe("decodeFlowState", () => {
  it("restores the state that was encoded, kinds and key order included", () => {
    const state = decoded(fixture("python-layout.json"));
    expect(state).toEqual(layoutState());
    expect(state.inputs.entries.get("whole")?.[1]).toBeInstanceOf(PyFloat);
    expect(state.inputs.entries.get("n")?.[1]).toBe(12345678901234567890n);
    expect([...state.step_outputs.keys()]).toEqual(["draft", "__proto__"]);
  });

  it("decodes a file written by the reference (no revision, no status, records without type)", () => {
    const state = decoded(fixture("reference-flow.json"));
    expect(state.revision).toBe(0);
    expect(state.status).toBe("running");
    expect(state.spec_checksum).toBe("");
    expect(state.records).toEqual([
      {
        step_id: "draft",
        function_name: "write",
        attempts: 1,
        duration_ms: 7,
        type: "step",
        round: 0,
        round_start_step_id: null,
        agent: null,
        step_mode: "function",
        child_flow_id: null,
        cache_hit: false,
        cache_key: null,
      },
      {
        step_id: "approve",
        outcome: "approve",
        rationale: "ok",
        resolved_by: "human",
        duration_ms: 3,
        type: "gate",
        round: 0,
        round_start_step_id: null,
      },
    ]);
    const checkpoint = state.checkpoints.get("start");
    expect(checkpoint?.current_idx).toBe(0);
    expect(checkpoint?.iterations).toEqual(new Map());
    expect(checkpoint?.child_audits).toEqual(new Map());
    expect(state.cwd).toBe("/home/user/project");
    // Re-encoded in our format: the reference's keys in the same order, plus review_log, revision and status.
    const text = encodeFlowState(state);
    expect(
      text.endsWith(
        '  "budget_state": null,\n  "review_log": {},\n  "revision": 0,\n  "status": "running"\n}',
      ),
    ).toBe(true);
  });

  it("gives every missing key its empty default", () => {
    const state = decoded("{}");
    expect(state.flow_id).toBe("");
    expect(state.inputs).toEqual(new PyDict());
    expect(state.step_outputs).toEqual(new Map());
    expect(state.records).toEqual([]);
    expect(state.current_idx).toBe(0);
    expect(state.terminal_status).toBeNull();
    expect(state.budget_state).toBeNull();
    expect(state.revision).toBe(0);
    expect(state.status).toBe("running");
  });

  it("reads a float duration and a fractional start time as numbers", () => {
    const state = decoded(
      '{"records": [{"step_id": "a", "duration_ms": 12.5}], "active_iteration": {"step_id": "a", "started_at": 1712345678.25}}',
    );
    expect(state.records[0]).toMatchObject({ duration_ms: 12.5, type: "step" });
    expect(state.active_iteration).toMatchObject({
      started_at: new PyFloat(1712345678.25),
      count: 0,
      status: "active",
    });
  });

  it.each([
    ["", "not valid JSON: Expecting value: line 1 column 1 (char 0)"],
    [
      '{"flow_id": "a",',
      "not valid JSON: Expecting property name enclosed in double quotes: line 1 column 17 (char 16)",
    ],
    ["[]", "expected an object"],
    ["null", "expected an object"],
    ['{"flow_id": 3}', "flow_id: expected a string"],
    ['{"records": [{"attempts": "1"}]}', "records[0].attempts: expected an integer"],
    ['{"records": [{"type": "cache"}]}', 'records[0].type: expected one of "step", "gate", "skip", "policy"'],
    ['{"attempts": {"a b": 1.5}}', 'attempts["a b"]: expected an integer'],
    [
      '{"checkpoints": {"c": {"rounds": [[{"type": "gate", "outcome": "maybe"}]]}}}',
      'checkpoints["c"].rounds[0][0].outcome: expected one of "approve", "revise", "kill"',
    ],
    ['{"revision": -1}', "revision: expected a non-negative integer"],
    ['{"revision": 1.0}', "revision: expected an integer"],
    [
      '{"status": "paused"}',
      'status: expected one of "running", "awaiting_gate", "exhausted", "complete", "killed", "budget_exhausted"',
    ],
    ['{"inputs": []}', "inputs: expected an object"],
    ['{"terminal_status": "complete"}', 'terminal_status: expected one of "killed", "budget_exhausted"'],
    ['{"budget_state": {"caps": {"ms": "1"}}}', "budget_state.caps.ms: expected a number"],
  ])("refuses %j: %s", (text, reason) => {
    expect(decodeFlowState(text)).toEqual({ ok: false, reason });
  });
});

describe("round trip", () => {
  it("decode(encode(s)) equals s and encodes to the same text", () => {
    fc.assert(
      fc.property(arbitraryFlowState, (state) => {
        const text = encodeFlowState(state);
        const back = decoded(text);
        expect(encodeFlowState(back)).toBe(text);
        expect(back).toEqual(state);
      }),
      { numRuns: 300 },
    );
  });
});
