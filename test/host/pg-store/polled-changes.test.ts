// How a server hears of commits where LISTEN is refused (host/pg-store/polled-changes.ts), on an
// in-memory store: polling reports new, changed and removed flows; `auto` listens at once and
// switches to polling when the probe finds LISTEN refused; `listen` never probes.
import { describe, expect, it } from "vitest";
import { pollChanges, watchChanges } from "../../../host/pg-store/polled-changes";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { type FlowStore, type StoreChange, textWrite } from "../../../interpreter/store/store";
import { flowText } from "../../interpreter/store/flow-text";
import { eventually } from "./support";

const write = (flowId: string, expectedRevision: number) =>
  textWrite(flowId, flowText(flowId, expectedRevision + 1, `r${expectedRevision + 1}`), expectedRevision);

/** A MemoryStore with a `watch` that only counts its listeners. */
function listeningStore(): { store: FlowStore; listening: () => number } {
  const memory = new MemoryStore();
  let listening = 0;
  const store: FlowStore = Object.assign(memory, {
    watch: () => {
      listening += 1;
      return () => {
        listening -= 1;
      };
    },
  });
  return { store, listening: () => listening };
}

describe("changes heard by polling", () => {
  it("reports flows created, changed and removed after the first read, not those before", async () => {
    const store = new MemoryStore();
    await store.commit({ writes: [write("before", 0)], deletes: [] });
    const heard: StoreChange[] = [];
    const stop = pollChanges(store, (c) => heard.push(c), 20);
    try {
      await new Promise((resolve) => setTimeout(resolve, 60));
      await store.commit({ writes: [write("new", 0), write("before", 1)], deletes: [] });
      await store.remove("new");
      await store.commit({ writes: [write("late", 0)], deletes: [] });
      expect(await eventually(() => heard.some((c) => c.flowId === "late"), 5000)).toBe(true);
      expect(heard.some((c) => c.flowId === "before" && c.token !== null)).toBe(true);
      expect(heard.filter((c) => c.flowId === "before")).toHaveLength(1);
    } finally {
      stop();
    }
  });

  it("says anything may have changed once the list can be read again after a failure", async () => {
    const memory = new MemoryStore();
    let failing = false;
    const store = {
      list: () => (failing ? Promise.reject(new Error("down")) : memory.list()),
      token: (id: string) => memory.token(id),
    };
    const heard: StoreChange[] = [];
    const stop = pollChanges(store, (c) => heard.push(c), 20);
    try {
      await new Promise((resolve) => setTimeout(resolve, 60));
      failing = true;
      await new Promise((resolve) => setTimeout(resolve, 60));
      failing = false;
      expect(await eventually(() => heard.some((c) => c.flowId === null), 5000)).toBe(true);
    } finally {
      stop();
    }
  });

  it("auto: listens at once, and polls instead when the probe finds LISTEN refused", async () => {
    const { store, listening } = listeningStore();
    let answer: (ok: boolean) => void = () => undefined;
    const probe = new Promise<boolean>((resolve) => {
      answer = resolve;
    });
    const heard: StoreChange[] = [];
    const stop = watchChanges(
      store,
      "auto",
      () => probe,
      (c) => heard.push(c),
      20,
    );
    try {
      expect(listening()).toBe(1);
      answer(false);
      expect(await eventually(() => listening() === 0, 5000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 60));
      await store.commit({ writes: [write("polled", 0)], deletes: [] });
      expect(await eventually(() => heard.some((c) => c.flowId === "polled"), 5000)).toBe(true);
    } finally {
      stop();
    }
  });

  it("auto keeps listening when the probe finds LISTEN; listen never probes; poll never listens", async () => {
    const { store, listening } = listeningStore();
    const stopAuto = watchChanges(
      store,
      "auto",
      () => Promise.resolve(true),
      () => undefined,
      20,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(listening()).toBe(1);
    stopAuto();
    expect(listening()).toBe(0);
    let probed = false;
    const stopListen = watchChanges(
      store,
      "listen",
      () => {
        probed = true;
        return Promise.resolve(false);
      },
      () => undefined,
    );
    expect(listening()).toBe(1);
    stopListen();
    expect(probed).toBe(false);
    const stopPoll = watchChanges(
      store,
      "poll",
      () => Promise.resolve(true),
      () => undefined,
      20,
    );
    expect(listening()).toBe(0);
    stopPoll();
  });

  it("says when it hears: after the first read, however slow, a change is heard", async () => {
    const memory = new MemoryStore();
    let reads = 0;
    const slowFirst = {
      list: async () => {
        reads += 1;
        if (reads === 1) await new Promise((resolve) => setTimeout(resolve, 300));
        return memory.list();
      },
      token: (id: string) => memory.token(id),
    };
    const heard: StoreChange[] = [];
    let ready = false;
    const stop = pollChanges(
      slowFirst,
      (c) => heard.push(c),
      20,
      () => {
        ready = true;
      },
    );
    try {
      expect(ready).toBe(false);
      expect(await eventually(() => ready, 5000)).toBe(true);
      await memory.commit({ writes: [write("after-ready", 0)], deletes: [] });
      expect(await eventually(() => heard.some((c) => c.flowId === "after-ready"), 5000)).toBe(true);
    } finally {
      stop();
    }
  });

  it("after a first read that failed, the first that succeeds says anything may have changed", async () => {
    const memory = new MemoryStore();
    let failing = true;
    const store = {
      list: () => (failing ? Promise.reject(new Error("down")) : memory.list()),
      token: (id: string) => memory.token(id),
    };
    const heard: StoreChange[] = [];
    let ready = false;
    const stop = pollChanges(
      store,
      (c) => heard.push(c),
      20,
      () => {
        ready = true;
      },
    );
    try {
      expect(await eventually(() => ready, 5000)).toBe(true);
      await memory.commit({ writes: [write("while-down", 0)], deletes: [] });
      failing = false;
      expect(await eventually(() => heard.some((c) => c.flowId === null), 5000)).toBe(true);
    } finally {
      stop();
    }
  });

  it("is ready at once for listen, once the probe answers for auto", async () => {
    const { store } = listeningStore();
    let readyListen = false;
    const stopListen = watchChanges(
      store,
      "listen",
      () => Promise.resolve(true),
      () => undefined,
      20,
      () => {
        readyListen = true;
      },
    );
    expect(readyListen).toBe(true);
    stopListen();
    let answer: (ok: boolean) => void = () => undefined;
    const probe = new Promise<boolean>((resolve) => {
      answer = resolve;
    });
    let readyAuto = false;
    const stopAuto = watchChanges(
      store,
      "auto",
      () => probe,
      () => undefined,
      20,
      () => {
        readyAuto = true;
      },
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(readyAuto).toBe(false);
      answer(true);
      expect(await eventually(() => readyAuto, 5000)).toBe(true);
    } finally {
      stopAuto();
    }
  });
});
