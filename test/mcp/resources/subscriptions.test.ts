// Flow subscriptions (mcp/resources/subscriptions.ts): a change of a subscribed flow is told once,
// through the store's change notices when it has them and by polling when it has not; a flow
// nobody subscribed to is never checked; a closed session stops following the store.
import { describe, expect, it } from "vitest";
import type { FlowStore, StoreChange } from "../../../interpreter/index";
import { FlowSubscriptions, MAX_SUBSCRIPTIONS } from "../../../mcp/resources/subscriptions";
import { fixture } from "./flow-fixture";

function recorder() {
  const heard: string[] = [];
  return { heard, updated: async (flowId: string) => void heard.push(flowId) };
}

const until = async (done: () => boolean, ms = 5000): Promise<void> => {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe("FlowSubscriptions", () => {
  it("tells of a changed subscribed flow once, after the call that changed it", async () => {
    const f = fixture();
    const a = await f.plan();
    const b = await f.plan();
    const { heard, updated } = recorder();
    const subs = new FlowSubscriptions(f.store, updated, () => true, 60_000);
    expect(await subs.subscribe(a)).toBe(true);
    subs.changed();
    await subs.settled();
    expect(heard).toEqual([]); // nothing changed yet
    await f.firstDone(a, "t");
    await f.firstDone(b, "t"); // not subscribed
    subs.changed();
    await subs.settled();
    subs.changed();
    await subs.settled();
    expect(heard).toEqual([a]);
    subs.unsubscribe(a);
    await f.api.stepDone({ flow_id: a, step_id: "second", result: null });
    subs.changed();
    await subs.settled();
    expect(heard).toEqual([a]);
    subs.close();
  });

  it("tells of a removed flow once", async () => {
    const f = fixture();
    const a = await f.plan();
    const { heard, updated } = recorder();
    const subs = new FlowSubscriptions(f.store, updated, () => true, 60_000);
    await subs.subscribe(a);
    await f.store.remove(a);
    for (let i = 0; i < 2; i++) {
      subs.changed();
      await subs.settled();
    }
    expect(heard).toEqual([a]);
    subs.close();
  });

  it("answers false for a flow the store does not have, and caps the subscriptions", async () => {
    const f = fixture();
    const subs = new FlowSubscriptions(f.store, recorder().updated, () => true, 60_000);
    expect(await subs.subscribe("00000000-0000-4000-8000-999999999999")).toBe(false);
    const ids: string[] = [];
    for (let i = 0; i <= MAX_SUBSCRIPTIONS; i++) ids.push(await f.plan());
    for (const id of ids.slice(0, MAX_SUBSCRIPTIONS)) expect(await subs.subscribe(id)).toBe(true);
    await expect(subs.subscribe(ids[MAX_SUBSCRIPTIONS] ?? "")).rejects.toMatchObject({ code: -32602 });
    expect(await subs.subscribe(ids[0] ?? "")).toBe(true); // again: not a new one
    subs.close();
  });

  it("polls a store without change notices, and stops when the session is gone", async () => {
    const f = fixture();
    const a = await f.plan();
    const { heard, updated } = recorder();
    let connected = true;
    const subs = new FlowSubscriptions(f.store, updated, () => connected, 10);
    await subs.subscribe(a);
    await f.firstDone(a, "t"); // as another process would: no call of this session
    await until(() => heard.length === 1);
    expect(heard).toEqual([a]);
    connected = false;
    await new Promise((r) => setTimeout(r, 50));
    await f.api.stepDone({ flow_id: a, step_id: "second", result: null });
    await new Promise((r) => setTimeout(r, 100));
    expect(heard).toEqual([a]);
  });

  it("follows a store's change notices instead of polling", async () => {
    const f = fixture();
    const a = await f.plan();
    const listeners = new Set<(change: StoreChange) => void>();
    const watched: FlowStore = {
      read: (id) => f.store.read(id),
      token: (id) => f.store.token(id),
      commit: (batch) => f.store.commit(batch),
      list: () => f.store.list(),
      remove: (id) => f.store.remove(id),
      watch: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const { heard, updated } = recorder();
    const subs = new FlowSubscriptions(watched, updated, () => true, 10);
    await subs.subscribe(a);
    expect(listeners.size).toBe(1);
    await f.firstDone(a, "t");
    await new Promise((r) => setTimeout(r, 100));
    expect(heard).toEqual([]); // no polling: only a notice makes it look
    for (const listener of listeners) listener({ flowId: a, token: "x" });
    await until(() => heard.length === 1);
    subs.unsubscribe(a);
    expect(listeners.size).toBe(0);
  });
});
