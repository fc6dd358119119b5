// State deltas (interpreter/store/delta.ts), field kind by field kind: what diffFlowState writes for
// values, lists and maps (append, put/delete in key order, set), that floats and big integers keep
// their kind, that applyDelta neither changes its input nor shares containers with it, that
// decodeDelta refuses damaged texts, and a round-trip property over random states and random edits.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  FlowState,
  IterationEntry,
  StepRecord,
  TraceRecord,
} from "../../../interpreter/base/flow-state";
import { cloneState } from "../../../interpreter/flow/clone";
import { decodeFlowState, encodeFlowState } from "../../../interpreter/store/codec";
import {
  applyDelta,
  applyDeltaInPlace,
  DELTA_KEYS,
  decodeDelta,
  diffFlowState,
  encodeDelta,
  type FlowDelta,
} from "../../../interpreter/store/delta";
import { makeDict } from "../../../stdlib/values/dict";
import { PyFloat, type PyValue } from "../../../stdlib/values/value";
import { arbitraryFlowState } from "../support/arbitrary-state";

function emptyState(): FlowState {
  const decoded = decodeFlowState("{}");
  if (!decoded.ok) throw new Error(decoded.reason);
  return { ...decoded.state, flow_id: "f", flow_name: "main", raw_spec: "spec", cwd: "/w" };
}

function record(stepId: string): StepRecord {
  return {
    step_id: stepId,
    function_name: "",
    attempts: 1,
    duration_ms: 5,
    type: "step",
    round: 0,
    round_start_step_id: null,
    agent: null,
    step_mode: "inline",
    child_flow_id: null,
    cache_hit: false,
    cache_key: null,
  };
}

function decoded(text: string): FlowDelta {
  const d = decodeDelta(text);
  if ("problem" in d) throw new Error(d.problem);
  return d;
}

/** Diff, encode, decode, apply: the applied state must encode like `after`. Returns the delta text. */
function roundTrip(before: FlowState, after: FlowState): string {
  const beforeText = encodeFlowState(before);
  const delta = diffFlowState(before, after);
  const text = encodeDelta(delta);
  const expected = encodeFlowState(after);
  expect(encodeFlowState(applyDelta(before, decoded(text)))).toBe(expected);
  expect(encodeFlowState(applyDelta(before, delta))).toBe(expected);
  expect(encodeFlowState(before)).toBe(beforeText);
  return text;
}

function edit(before: FlowState, change: (w: FlowState) => void): { text: string; delta: FlowDelta } {
  const working = cloneState(before);
  change(working);
  const text = roundTrip(before, working);
  return { text, delta: decoded(text) };
}

const base = (): FlowState => {
  const s = cloneState(emptyState());
  s.records = [record("a"), record("b")];
  s.step_outputs = new Map<string, PyValue>([
    ["a", makeDict([["x", 1]])],
    ["b", makeDict([["y", new PyFloat(2)]])],
    ["c", null],
  ]);
  s.attempts = new Map([
    ["a", 1],
    ["b", 1],
  ]);
  s.rounds = [[record("a")]];
  s.iterations = new Map([
    ["a", [{ iteration: 1 } as IterationEntry]],
    ["b", []],
  ]);
  s.iteration_accumulator = new Map([
    ["a", { items: [1], seen: ["1"], dry_streak: 0 }],
    ["b", { items: [], seen: [], dry_streak: 1 }],
  ]);
  s.revision = 4;
  return s;
};

describe("diffFlowState", () => {
  it("names the key order of the flow file (FlowState minus revision, status and the constants)", () => {
    const keys = Object.keys(emptyState()).filter(
      (k) => !["revision", "status", "spec_checksum", "synthetic"].includes(k),
    );
    expect([...DELTA_KEYS]).toEqual(keys);
  });

  it("an unchanged working copy is only revision and status", () => {
    const before = base();
    const { text } = edit(before, (w) => {
      w.revision = 5;
    });
    expect(text).toBe('{"revision": 5, "status": "running"}');
  });

  it("values: set when changed, absent when equal", () => {
    const { text } = edit(base(), (w) => {
      w.current_idx = 2;
      w.terminal_status = "killed";
      w.active_child_flow_id = "child";
      w.flow_name = "main"; // the same string
      w.status = "killed";
    });
    expect(text).toBe(
      '{"revision": 4, "status": "killed", "set": {"current_idx": 2, "terminal_status": "killed", "active_child_flow_id": "child"}}',
    );
  });

  it("lists: append of what follows an identical prefix, set otherwise", () => {
    const before = base();
    const appended = edit(before, (w) => {
      w.records.push(record("c"));
    });
    expect(appended.text).toContain('"append": {"records": [{"step_id": "c"');
    expect(appended.delta.set).toEqual({});
    // An equal record that is another object is a change (identity), and so is a shorter list.
    const replaced = edit(before, (w) => {
      w.records[0] = record("a");
    });
    expect(Object.keys(replaced.delta.set)).toEqual(["records"]);
    const cleared = edit(before, (w) => {
      w.records.length = 0;
    });
    expect(cleared.text).toContain('"set": {"records": []}');
  });

  it("rounds and iteration lists are copied by cloneState: compared one level down", () => {
    const before = base();
    const { delta } = edit(before, (w) => {
      w.rounds.push([record("b")]);
      w.iterations.get("a")?.push({ iteration: 2 });
      w.iteration_accumulator.get("a")?.items.push(2);
    });
    expect(Object.keys(delta.append)).toEqual(["rounds"]);
    expect(delta.append.rounds?.length).toBe(1);
    expect([...(delta.put.iterations?.keys() ?? [])]).toEqual(["a"]);
    expect([...(delta.put.iteration_accumulator?.keys() ?? [])]).toEqual(["a"]);
    expect(delta.set).toEqual({});
  });

  it("maps: put of new (last) and changed entries, delete of removed keys", () => {
    const { text } = edit(base(), (w) => {
      w.step_outputs.set("b", "new");
      w.step_outputs.delete("c");
      w.step_outputs.set("d", new PyFloat(0.5));
      w.attempts.set("b", 2);
    });
    expect(text).toBe(
      '{"revision": 4, "status": "running", "put": {"step_outputs": {"b": "new", "d": 0.5}, "attempts": {"b": 2}}, "delete": {"step_outputs": ["c"]}}',
    );
  });

  it("maps: a key that moved is deleted and put again, so the order is exact", () => {
    const { text, delta } = edit(base(), (w) => {
      const a = w.step_outputs.get("a") ?? null;
      w.step_outputs.delete("a");
      w.step_outputs.set("a", a);
    });
    expect(text).toContain('"put": {"step_outputs": {"a": {"x": 1}}}');
    expect(delta.delete.step_outputs).toEqual(["a"]);
  });

  it("maps: set when every entry would be written (emptied, all changed)", () => {
    const before = base();
    expect(edit(before, (w) => w.step_outputs.clear()).text).toContain('"set": {"step_outputs": {}}');
    const allChanged = edit(before, (w) => {
      w.attempts.set("a", 2).set("b", 2);
    });
    expect(allChanged.text).toContain('"set": {"attempts": {"a": 2, "b": 2}}');
    // Swapped keys are not a set: the one that moved is deleted and put again.
    const swapped = edit(before, (w) => {
      w.attempts = new Map([...w.attempts].reverse());
    });
    expect(swapped.text).toContain('"put": {"attempts": {"a": 1}}, "delete": {"attempts": ["a"]}');
  });

  it("fixed-key objects: equal copies are unchanged, a changed field sets the whole object", () => {
    const before = cloneState(base());
    before.active_iteration = {
      step_id: "a",
      round: 0,
      max_iterations: 3,
      exit_criterion: null,
      score_expr: null,
      accumulate: null,
      accumulate_key: null,
      count: 1,
      started_at: new PyFloat(12),
      status: "active",
    };
    before.budget_state = {
      caps: { ms: 1000, usd: null, max_agent_dispatches: null, max_tokens: null },
      consumed: { wall_s: new PyFloat(1.5), dispatches: 1, tokens: 0, dollars: 0 },
    };
    const same = edit(before, (w) => {
      w.budget_state = {
        caps: { ms: 1000, usd: null, max_agent_dispatches: null, max_tokens: null },
        consumed: { wall_s: new PyFloat(1.5), dispatches: 1, tokens: 0, dollars: 0 },
      };
    });
    expect(same.delta.set).toEqual({});
    const changed = edit(before, (w) => {
      if (w.active_iteration) w.active_iteration.count = 2;
      w.budget_state = {
        caps: { ms: 1000, usd: null, max_agent_dispatches: null, max_tokens: null },
        consumed: { wall_s: new PyFloat(-0), dispatches: 1, tokens: 0, dollars: 0 },
      };
    });
    expect(Object.keys(changed.delta.set)).toEqual(["active_iteration", "budget_state"]);
    expect(changed.text).toContain('"started_at": 12.0');
    expect(changed.text).toContain('"wall_s": -0.0');
  });

  it("keeps kinds: integral floats stay floats, big integers stay integers", () => {
    const { text, delta } = edit(base(), (w) => {
      w.step_outputs.set(
        "z",
        makeDict([
          ["f", new PyFloat(3)],
          ["n", 2n ** 70n],
          ["i", 3],
        ]),
      );
    });
    expect(text).toContain('"z": {"f": 3.0, "n": 1180591620717411303424, "i": 3}');
    const z = delta.put.step_outputs?.get("z");
    expect(encodeFlowState({ ...base(), step_outputs: new Map([["z", z ?? null]]) })).toContain('"f": 3.0');
  });
});

describe("applyDelta", () => {
  it("returns a state that can be mutated without touching its input or the delta's source", () => {
    const before = base();
    const beforeText = encodeFlowState(before);
    const working = cloneState(before);
    working.records.push(record("c"));
    working.iteration_accumulator.set("n", { items: [1], seen: [], dry_streak: 0 });
    working.iterations.set("n", [{ iteration: 1 }]);
    const workingText = encodeFlowState(working);
    for (const delta of [
      diffFlowState(before, working),
      decoded(encodeDelta(diffFlowState(before, working))),
    ]) {
      const out = applyDelta(before, delta);
      out.records.push(record("x"));
      out.rounds[0]?.push(record("x"));
      out.step_outputs.set("x", 1);
      out.iteration_accumulator.get("a")?.items.push(9);
      out.iteration_accumulator.get("n")?.items.push(9);
      out.iterations.get("n")?.push({ iteration: 9 });
      out.checkpoints.clear();
      out.attempts.set("a", 7);
      if (out.active_iteration) out.active_iteration.count = 9;
      expect(encodeFlowState(before)).toBe(beforeText);
      expect(encodeFlowState(working)).toBe(workingText);
    }
  });
});

/** Containers of `orig` that `clone` does not share (up to three levels down), as paths. */
function copiedPaths(orig: unknown, clone: unknown, path: string, depth: number, out: string[]): string[] {
  if (orig === clone || depth > 3 || typeof orig !== "object" || orig === null) return out;
  if (typeof clone !== "object" || clone === null) return out;
  out.push(path);
  if (Array.isArray(orig) && Array.isArray(clone)) {
    for (const [i, item] of orig.entries()) copiedPaths(item, clone[i], `${path}[${i}]`, depth + 1, out);
  } else if (orig instanceof Map && clone instanceof Map) {
    for (const [k, v] of orig) copiedPaths(v, clone.get(k), `${path}[${JSON.stringify(k)}]`, depth + 1, out);
  } else if (Object.getPrototypeOf(orig) === Object.prototype) {
    for (const [k, v] of Object.entries(orig)) {
      copiedPaths(v, (clone as Record<string, unknown>)[k], `${path}.${k}`, depth + 1, out);
    }
  }
  return out;
}

describe("applyDelta copies as working copies are made", () => {
  it("copies at least every container cloneState copies (so callers may mutate it as a working copy)", () => {
    fc.assert(
      fc.property(arbitraryFlowState, (state) => {
        const noop = decoded(`{"revision": ${state.revision}, "status": "${state.status}"}`);
        const ours = new Set(copiedPaths(state, applyDelta(state, noop), "", 0, []));
        const missing = copiedPaths(state, cloneState(state), "", 0, []).filter((p) => !ours.has(p));
        expect(missing).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it("applyDeltaInPlace replays a sequence of deltas on one copy", () => {
    const states = [base()];
    for (let i = 0; i < 5; i++) {
      const w = cloneState(states[i] as FlowState);
      w.records.push(record(`r${i}`));
      w.step_outputs.set(`k${i}`, i);
      if (i === 2) w.step_outputs.delete("a");
      if (i === 3) w.rounds.push([...w.records]);
      w.revision = i + 5;
      states.push(w);
    }
    const replayed = applyDelta(states[0] as FlowState, decoded('{"revision": 4, "status": "running"}'));
    for (let i = 1; i < states.length; i++) {
      const delta = decoded(encodeDelta(diffFlowState(states[i - 1] as FlowState, states[i] as FlowState)));
      applyDeltaInPlace(replayed, delta);
      expect(encodeFlowState(replayed)).toBe(encodeFlowState(states[i] as FlowState));
    }
  });
});

describe("decodeDelta", () => {
  const problem = (text: string): string => {
    const d = decodeDelta(text);
    if (!("problem" in d)) throw new Error(`decoded: ${text}`);
    return d.problem;
  };

  it("refuses damaged and unknown texts with a reason", () => {
    expect(problem("{")).toMatch(/^not valid JSON/);
    expect(problem("[]")).toBe("expected an object");
    expect(problem('{"status": "running"}')).toMatch(/^revision: expected an integer/);
    expect(problem('{"revision": -1, "status": "running"}')).toMatch(/non-negative/);
    expect(problem('{"revision": 1, "status": "done"}')).toMatch(/^status: expected one of/);
    expect(problem('{"revision": 1, "status": "running", "move": {}}')).toMatch(
      /^move: expected no such key/,
    );
    expect(problem('{"revision": 1, "status": "running", "set": {"bogus": 1}}')).toBe(
      "set.bogus: expected a key of the flow state",
    );
    expect(problem('{"revision": 1, "status": "running", "set": {"synthetic": false}}')).toMatch(
      /set.synthetic/,
    );
    expect(problem('{"revision": 1, "status": "running", "append": {"attempts": []}}')).toMatch(/a list key/);
    expect(problem('{"revision": 1, "status": "running", "put": {"records": {}}}')).toMatch(/a map key/);
    expect(
      problem('{"revision": 1, "status": "running", "set": {"records": []}, "append": {"records": []}}'),
    ).toMatch(/^append.records: expected no other change of a key changed by set/);
    expect(problem('{"revision": 1, "status": "running", "append": {"records": [1]}}')).toBe(
      "append.records[0]: expected an object",
    );
    expect(problem('{"revision": 1, "status": "running", "put": {"attempts": {"a": 1.5}}}')).toMatch(
      /integer/,
    );
  });

  it("accepts put and delete of one map key together", () => {
    const d = decoded(
      '{"revision": 2, "status": "running", "put": {"attempts": {"a": 2}}, "delete": {"attempts": ["a"]}}',
    );
    expect(d.delete.attempts).toEqual(["a"]);
    expect([...(d.put.attempts ?? [])]).toEqual([["a", 2]]);
  });
});

/** A random edit of a working copy, with new values taken from another random state. */
type Edit = (w: FlowState, other: FlowState, pick: number) => void;

const LIST_KEYS = ["records", "rounds", "archived_iterations"] as const;
const MAP_KEYS = [
  "step_outputs",
  "attempts",
  "checkpoints",
  "iterations",
  "iteration_best",
  "child_audits",
] as const;

const edits: fc.Arbitrary<Edit> = fc.oneof(
  fc.constantFrom<Edit>(
    (w, o) => {
      w.current_idx = o.current_idx;
      w.active_iteration = o.active_iteration;
    },
    (w, o) => {
      w.budget_state = o.budget_state;
      w.round_start_step_id = o.round_start_step_id;
    },
    (w, o) => {
      w.inputs = o.inputs;
    },
  ),
  fc.constantFrom(...LIST_KEYS).map(
    (key): Edit =>
      (w, o, pick) => {
        const list = w[key] as unknown[];
        if (pick % 3 === 0) list.push(...(o[key] as unknown[]));
        else if (pick % 3 === 1) list.splice(pick % (list.length + 1));
        else (w as unknown as Record<string, unknown>)[key] = o[key];
      },
  ),
  fc.constantFrom(...MAP_KEYS).map(
    (key): Edit =>
      (w, o, pick) => {
        const map = w[key] as Map<string, unknown>;
        const keys = [...map.keys()];
        const k = keys[pick % Math.max(1, keys.length)];
        const entry = [...(o[key] as Map<string, unknown>)][pick % Math.max(1, o[key].size)];
        if (pick % 4 === 0 && k !== undefined) map.delete(k);
        else if (pick % 4 === 1 && k !== undefined) {
          const v = map.get(k);
          map.delete(k);
          map.set(k, v);
        } else if (entry === undefined) map.clear();
        else if (pick % 4 === 2 && k !== undefined) map.set(k, entry[1]);
        else map.set(entry[0], entry[1]);
      },
  ),
);

describe("round trip", () => {
  it("applying the decoded delta of random edits encodes like the working copy", () => {
    fc.assert(
      fc.property(
        arbitraryFlowState,
        arbitraryFlowState,
        fc.array(fc.tuple(edits, fc.nat()), { maxLength: 8 }),
        (before, other, changes) => {
          const working = cloneState(before);
          for (const [change, pick] of changes) change(working, other, pick);
          working.revision = before.revision + 1;
          roundTrip(before, working);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("works between unrelated states (nothing shared: every changed key is set)", () => {
    fc.assert(
      fc.property(arbitraryFlowState, arbitraryFlowState, (a, b) => {
        roundTrip(a, b);
      }),
      { numRuns: 200 },
    );
  });

  it("records keep their shapes through the delta", () => {
    const before = base();
    const gate: TraceRecord = {
      step_id: "g",
      outcome: "revise",
      rationale: "r",
      resolved_by: "agent",
      duration_ms: 1.5,
      type: "gate",
      round: 1,
      round_start_step_id: "a",
    };
    edit(before, (w) => {
      w.records.push(gate);
    });
  });
});
