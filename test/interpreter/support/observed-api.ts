// An engine with an observer that collects the events of every committed call (observer.ts).

import { nodeWorkspace } from "../../../host/node-workspace";
import type { StratumApi } from "../../../interpreter/api";
import { createApi } from "../../../interpreter/engine/create-api";
import type { FlowEvent, FlowObserver } from "../../../interpreter/engine/observer";
import type { FlowStore } from "../../../interpreter/store/store";
import { ManualClock } from "./manual-clock";
import { SequentialIds } from "./sequential-ids";

export interface ObservedApi {
  readonly api: StratumApi;
  readonly clock: ManualClock;
  readonly loggedErrors: readonly string[];
  /** The events since the last call of `take`. */
  take(): FlowEvent[];
  /** A new engine over the same store, clock, ids and observer (a server restart). */
  restart(): void;
}

export interface ObservedOptions {
  /** The observer throws after collecting (a broken observer must fail no call). */
  readonly throwing?: boolean;
  /** Also told about every batch of events. */
  readonly observer?: FlowObserver;
}

export function makeObservedApi(store: FlowStore, options: ObservedOptions = {}): ObservedApi {
  const clock = new ManualClock();
  const ids = new SequentialIds();
  const loggedErrors: string[] = [];
  let events: FlowEvent[] = [];
  const build = () =>
    createApi({
      store,
      clock,
      ids,
      cwd: "/nowhere",
      files: () => null,
      workspace: nodeWorkspace,
      logError: (message) => loggedErrors.push(message),
      verifyEdits: true,
      observer: (batch) => {
        events.push(...batch);
        options.observer?.(batch);
        if (options.throwing === true) throw new Error("observer down");
      },
    });
  let api = build();
  return {
    get api() {
      return api;
    },
    clock,
    loggedErrors,
    take() {
      const out = events;
      events = [];
      return out;
    },
    restart() {
      api = build();
    },
  };
}
