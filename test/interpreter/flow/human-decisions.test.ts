// humanDecisionsUndone (interpreter/flow/human-decisions.ts, decision-tree.ts): the person's gate
// decisions a revert to a checkpoint would erase, in the flow's own trace (whatever rounds the
// records sit in) and in its sub-flows at any depth (audits in `child_audits`, the running child),
// compared by value (a store round trip makes new objects, audits become PyDicts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GateRecord, TraceRecord } from "../../../interpreter/base/flow-state";
import type { DecisionTree, LiveFlow, ReadFlow } from "../../../interpreter/flow/decision-tree";
import { humanDecisionsUndone } from "../../../interpreter/flow/human-decisions";
import { encodeWire } from "../../../interpreter/wire/encode";
import type { Wire } from "../../../interpreter/wire/wire";
import { parseJson } from "../../../stdlib/values/json-parse";

const gate = (
  step_id: string,
  resolved_by: GateRecord["resolved_by"],
  round = 0,
  outcome: GateRecord["outcome"] = "approve",
  rationale = "ok",
): GateRecord => ({
  step_id,
  outcome,
  rationale,
  resolved_by,
  duration_ms: 5,
  type: "gate",
  round,
  round_start_step_id: null,
});

const TOP = { flow_id: "top", flow_name: "publish" };
const noFlows: ReadFlow = () => null;

const tree = (records: TraceRecord[], more: Partial<DecisionTree> = {}): DecisionTree => ({
  records,
  rounds: [],
  child_audits: new Map(),
  active_child_flow_id: null,
  ...more,
});

/** A sub-flow's audit as the parent keeps it (flow/audit.ts): the keys the rule reads. */
const audit = (
  flow_id: string,
  flow_name: string,
  records: TraceRecord[],
  children = new Map<string, Wire[]>(),
) => ({
  flow_id,
  flow_name,
  trace: records as unknown as Wire[],
  rounds: [] as Wire[],
  child_audits: children,
});

/** The audit as read back from the store: PyDicts, lists and numbers parsed from its JSON. */
const stored = (w: Wire): Wire => parseJson(encodeWire(w));

const ids = (undone: readonly { step_id: string }[]) => undone.map((d) => d.step_id);

describe("humanDecisionsUndone in the flow's own trace", () => {
  it("finds the human decisions past the checkpoint, not the agent's or the system's", () => {
    const before = tree([gate("a", "human")]);
    const after = tree([gate("a", "human"), gate("b", "agent"), gate("b", "human"), gate("c", "system")]);
    const undone = humanDecisionsUndone(TOP, after, before, noFlows);
    expect(undone).toMatchObject([{ step_id: "b", flow_id: "top", via: [], resolved_by_name: null }]);
  });

  it("counts a decision archived in an earlier round as held by a checkpoint that has it in its current round", () => {
    const checkpoint = tree([gate("a", "human")]);
    const current = tree([], { rounds: [[gate("a", "human")]] });
    expect(humanDecisionsUndone(TOP, current, checkpoint, noFlows)).toEqual([]);
    expect(humanDecisionsUndone(TOP, current, tree([]), noFlows)).toHaveLength(1);
  });

  it("keeps the name of the person who decided", () => {
    const named: GateRecord = { ...gate("a", "human"), resolved_by_name: "ana" };
    expect(humanDecisionsUndone(TOP, tree([named]), tree([]), noFlows)).toMatchObject([
      { step_id: "a", resolved_by_name: "ana" },
    ]);
  });
});

describe("humanDecisionsUndone in sub-flows", () => {
  it("finds a decision in a finished sub-flow's audit the checkpoint lacks, in memory or read back", () => {
    const child = audit("c1", "review_flow", [gate("review", "human", 0, "revise")]);
    for (const a of [child, stored(child)]) {
      const current = tree([], { child_audits: new Map([["sub", [a]]]) });
      expect(humanDecisionsUndone(TOP, current, tree([]), noFlows)).toMatchObject([
        {
          flow_id: "c1",
          flow_name: "review_flow",
          via: ["sub"],
          step_id: "review",
          outcome: "revise",
          round: 0,
        },
      ]);
      // A checkpoint holding the same audit (in the other form) keeps the decision.
      const other = a === child ? stored(child) : child;
      const checkpoint = tree([], { child_audits: new Map([["sub", [other]]]) });
      expect(humanDecisionsUndone(TOP, current, checkpoint, noFlows)).toEqual([]);
    }
  });

  it("goes down a sub-flow's own sub-flows, naming the steps on the way", () => {
    const grandchild = audit("g1", "review_flow", [gate("review", "human")]);
    const child = audit("c1", "middle", [gate("agent_ok", "agent")], new Map([["inner", [grandchild]]]));
    const current = tree([], { child_audits: new Map([["sub", [stored(child)]]]) });
    expect(humanDecisionsUndone(TOP, current, tree([]), noFlows)).toMatchObject([
      { flow_id: "g1", flow_name: "review_flow", via: ["sub", "inner"], step_id: "review" },
    ]);
  });

  it("counts a sub-flow held twice (audited at two reports of its step) as one flow", () => {
    const first = audit("c1", "review_flow", [gate("review", "human")]);
    const later = audit("c1", "review_flow", [gate("review", "human"), gate("again", "human")]);
    const current = tree([], { child_audits: new Map([["sub", [first, later]]]) });
    const checkpoint = tree([], { child_audits: new Map([["sub", [first]]]) });
    expect(ids(humanDecisionsUndone(TOP, current, checkpoint, noFlows))).toEqual(["again"]);
  });

  it("reads the running sub-flow from the store: kept when the checkpoint points at it, undone otherwise", () => {
    const live: LiveFlow = {
      flow_name: "review_flow",
      parent_step_id: "sub",
      tree: tree([gate("review", "human")], { active_child_flow_id: "g1" }),
    };
    const deeper: LiveFlow = {
      flow_name: "leaf",
      parent_step_id: "leaf_step",
      tree: tree([gate("leaf_gate", "human")]),
    };
    const read: ReadFlow = (id) => (id === "c1" ? live : id === "g1" ? deeper : null);
    const current = tree([], { active_child_flow_id: "c1" });
    expect(humanDecisionsUndone(TOP, current, tree([]), read)).toMatchObject([
      { flow_id: "c1", via: ["sub"], step_id: "review" },
      { flow_id: "g1", flow_name: "leaf", via: ["sub", "leaf_step"], step_id: "leaf_gate" },
    ]);
    expect(humanDecisionsUndone(TOP, current, tree([], { active_child_flow_id: "c1" }), read)).toEqual([]);
    // A pointer to a child the store no longer has keeps nothing.
    expect(humanDecisionsUndone(TOP, current, tree([], { active_child_flow_id: "gone" }), read)).toHaveLength(
      2,
    );
  });

  it("stops at a flow that is its own ancestor instead of looping", () => {
    const loop: LiveFlow = {
      flow_name: "self",
      parent_step_id: "sub",
      tree: tree([gate("g", "human")], { active_child_flow_id: "c1" }),
    };
    const read: ReadFlow = (id) => (id === "c1" ? loop : null);
    expect(ids(humanDecisionsUndone(TOP, tree([], { active_child_flow_id: "c1" }), tree([]), read))).toEqual([
      "g",
    ]);
  });
});

// A model of a flow tree built by a sequence of events, against which the rule is checked: each
// event acts on the deepest running flow (a gate decision, entering a sub-flow, finishing
// the sub-flow and reporting it to its parent), and the top flow saves checkpoints on the way.
type Event =
  | { readonly kind: "gate"; readonly by: GateRecord["resolved_by"]; readonly outcome: GateRecord["outcome"] }
  | { readonly kind: "enter"; readonly step: string }
  | { readonly kind: "finish"; readonly roundTrip: boolean }
  | { readonly kind: "commit" };

const arbEvent: fc.Arbitrary<Event> = fc.oneof(
  fc.record({
    kind: fc.constant("gate" as const),
    by: fc.constantFrom("human", "agent", "system" as const),
    outcome: fc.constantFrom("approve", "revise", "kill" as const),
  }),
  fc.record({ kind: fc.constant("enter" as const), step: fc.constantFrom("s1", "s2") }),
  fc.record({ kind: fc.constant("finish" as const), roundTrip: fc.boolean() }),
  fc.record({ kind: fc.constant("commit" as const) }),
);

interface ModelFlow {
  readonly id: string;
  readonly parentStep: string | null;
  records: TraceRecord[];
  rounds: TraceRecord[][];
  readonly child_audits: Map<string, Wire[]>;
  active_child_flow_id: string | null;
}

interface Decision {
  readonly rationale: string;
  /** When it was made (the event's index). */
  readonly at: number;
  /** Flow ids from the top flow down to the flow it was made in. */
  readonly chain: readonly string[];
}

interface Checkpoint {
  readonly at: number;
  readonly tree: DecisionTree;
}

function play(events: readonly Event[]) {
  const top: ModelFlow = newFlow("top", null);
  const live = new Map<string, ModelFlow>([["top", top]]);
  let chain: ModelFlow[] = [top];
  const decisions: Decision[] = [];
  const checkpoints: Checkpoint[] = [];
  /** When each first-level sub-flow was reported to the top flow. */
  const reportedAt = new Map<string, number>();
  events.forEach((e, at) => {
    const here = chain[chain.length - 1] as ModelFlow;
    if (e.kind === "gate") {
      const rationale = `d${at}`;
      here.records = [...here.records, gate("g", e.by, here.rounds.length, e.outcome, rationale)];
      if (e.by === "human") decisions.push({ rationale, at, chain: chain.map((f) => f.id) });
      if (e.outcome === "revise") {
        here.rounds = [...here.rounds, here.records];
        here.records = [];
      }
    } else if (e.kind === "enter" && chain.length < 4) {
      const child = newFlow(`f${at}`, e.step);
      live.set(child.id, child);
      here.active_child_flow_id = child.id;
      chain = [...chain, child];
    } else if (e.kind === "finish" && chain.length > 1) {
      const parent = chain[chain.length - 2] as ModelFlow;
      const a = {
        flow_id: here.id,
        flow_name: "sub",
        trace: here.records as unknown as Wire[],
        rounds: here.rounds.map((steps, round) => ({ round, steps: steps as unknown as Wire[] })),
        child_audits: new Map(here.child_audits),
      };
      const step = here.parentStep ?? "";
      parent.child_audits.set(step, [...(parent.child_audits.get(step) ?? []), e.roundTrip ? stored(a) : a]);
      parent.active_child_flow_id = null;
      live.delete(here.id);
      if (parent === top) reportedAt.set(here.id, at);
      chain = chain.slice(0, -1);
    } else if (e.kind === "commit") {
      const tree: DecisionTree = {
        records: [...top.records],
        rounds: [...top.rounds],
        child_audits: new Map([...top.child_audits].map(([k, v]) => [k, [...v]])),
        active_child_flow_id: top.active_child_flow_id,
      };
      checkpoints.push({ at, tree });
    }
  });
  return { top, live, decisions, checkpoints, reportedAt };
}

function newFlow(id: string, parentStep: string | null): ModelFlow {
  return { id, parentStep, records: [], rounds: [], child_audits: new Map(), active_child_flow_id: null };
}

describe("humanDecisionsUndone over any sequence of decisions", () => {
  it("property: a revert is refused iff it would drop a person's decision anywhere in the tree, and names exactly those", () => {
    fc.assert(
      fc.property(fc.array(arbEvent, { maxLength: 40 }), (events) => {
        const { top, live, decisions, checkpoints, reportedAt } = play(events);
        const read: ReadFlow = (id) => {
          const f = live.get(id);
          return f === undefined ? null : { flow_name: "sub", parent_step_id: f.parentStep, tree: f };
        };
        for (const c of checkpoints) {
          // What the restored flow still holds: its own decisions from before the checkpoint, the
          // sub-flows reported by then (their audits are in the checkpoint), and the sub-flow it
          // was running then if that one is still running (the revert goes back to it).
          const kept = (d: Decision): boolean => {
            const first = d.chain[1];
            if (first === undefined) return d.at < c.at;
            const reported = reportedAt.get(first);
            if (reported !== undefined && reported < c.at) return true;
            return c.tree.active_child_flow_id === first && live.has(first);
          };
          const dropped = decisions.filter((d) => !kept(d)).map((d) => d.rationale);
          const undone = humanDecisionsUndone(TOP, top, c.tree, read);
          expect(undone.map((d) => d.rationale).sort()).toEqual(dropped.sort());
          expect(undone.length > 0).toBe(dropped.length > 0);
          // Where each was made: the flow and the sub-flow steps down to it.
          for (const d of undone) {
            const made = decisions.find((x) => x.rationale === d.rationale) as Decision;
            expect(d.flow_id).toBe(made.chain[made.chain.length - 1]);
            expect(d.via).toHaveLength(made.chain.length - 1);
          }
        }
        // The flow as it is undoes nothing.
        expect(humanDecisionsUndone(TOP, top, top, read)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
