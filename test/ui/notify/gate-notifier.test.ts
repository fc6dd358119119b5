// Which gates are announced (ui/notify/gate-notifier.ts), over a scripted flows list: what waits
// at the first reading is not announced; a gate that starts waiting later is, once; the same flow
// at another gate, or at the same gate in a new round, is a new waiting period; a failed reading
// is logged once and changes nothing.
import { describe, expect, it } from "vitest";
import type { FlowList, FlowListItem } from "../../../ui/api-types";
import { GateNotifier } from "../../../ui/notify/gate-notifier";
import type { GateNotification } from "../../../ui/notify/message";

function flow(id: string, stepId: string | null, round = 0): FlowListItem {
  return {
    flow_id: id,
    flow_name: "main",
    status: stepId === null ? "running" : "awaiting_gate",
    current_step_id: stepId ?? "draft",
    step_count: 3,
    completed_steps: 1,
    round,
    updated_ms: 1_000 + round,
    gate:
      stepId === null
        ? null
        : {
            step_id: stepId,
            function: "review",
            on_approve: null,
            on_revise: "draft",
            on_kill: null,
            timeout: null,
            intent: null,
          },
    problem: null,
    parent_flow_id: null,
  };
}

function harness() {
  let flows: FlowListItem[] | Error = [];
  let listener: (() => void) | null = null;
  const sent: GateNotification[] = [];
  const errors: string[] = [];
  const notifier = new GateNotifier({
    list: async (): Promise<FlowList> => {
      if (flows instanceof Error) throw flows;
      return { home: "/h", flows };
    },
    subscribe: (l) => {
      listener = l;
      return () => {
        listener = null;
      };
    },
    send: (n) => sent.push(n),
    publicUrl: new URL("http://127.0.0.1:7777/"),
    logError: (m) => errors.push(m),
  });
  return {
    notifier,
    sent,
    errors,
    /** The store now holds `next`; the watch tells the notifier, which reads it. */
    async change(next: FlowListItem[] | Error) {
      flows = next;
      expect(listener).not.toBeNull();
      await notifier.scan();
    },
    set(next: FlowListItem[] | Error) {
      flows = next;
    },
    sentKeys: () => sent.map((n) => `${n.flow_id}:${n.step_id}`),
  };
}

describe("the gate notifier", () => {
  it("learns what waits at start without announcing it, then announces each new waiting period once", async () => {
    const h = harness();
    h.set([flow("a", "approve"), flow("b", null)]);
    await h.notifier.start();
    expect(h.sent).toEqual([]);
    await h.change([flow("a", "approve"), flow("b", "approve")]);
    await h.change([flow("a", "approve"), flow("b", "approve")]);
    expect(h.sentKeys()).toEqual(["b:approve"]);
    expect(h.sent[0]?.link).toBe("http://127.0.0.1:7777/#/flow/b");
    // a leaves its gate and comes back: a new waiting period.
    await h.change([flow("a", null), flow("b", "approve")]);
    await h.change([flow("a", "approve"), flow("b", "approve")]);
    // b moves straight on to another gate; a is back at its gate in a new round, unseen in between.
    await h.change([flow("a", "approve", 1), flow("b", "release")]);
    expect(h.sentKeys()).toEqual(["b:approve", "a:approve", "a:approve", "b:release"]);
    h.notifier.stop();
  });

  it("logs a reading that fails once per reason and announces after it as before", async () => {
    const h = harness();
    await h.notifier.start();
    await h.change(new Error("the store is down"));
    await h.change(new Error("the store is down"));
    expect(h.errors).toEqual(["notifications: cannot read the flows (the store is down)"]);
    await h.change([flow("c", "approve")]);
    expect(h.sentKeys()).toEqual(["c:approve"]);
  });

  it("takes the first reading that works as the start when the store was down at first", async () => {
    const h = harness();
    h.set(new Error("down"));
    await h.notifier.start();
    await h.change([flow("d", "approve")]);
    expect(h.sent).toEqual([]);
    await h.change([flow("d", "approve"), flow("e", "approve")]);
    expect(h.sentKeys()).toEqual(["e:approve"]);
  });
});
