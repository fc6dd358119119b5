// The interpreter's events of one tools/call, for a client that asks for them (docs/guides/fuzzing.md,
// "Replaying over a server"): the request's `params._meta["stratumc/events"]: true` makes the
// result carry the call's events under the same key of its `_meta`. The engine calls its observer
// synchronously after the commit and before it answers, so the events of a call are the ones
// observed while that call runs; an AsyncLocalStorage tells them apart when calls overlap.
import { AsyncLocalStorage } from "node:async_hooks";
import type { FlowEvent, FlowObserver } from "../interpreter/index";

/** The `_meta` key of the request (true) and of the result (the events). */
export const EVENTS_META_KEY = "stratumc/events";

export class CallEvents {
  private readonly current = new AsyncLocalStorage<FlowEvent[]>();

  /** The engine's observer (EngineOptions.observer): adds the events to the running call's list. */
  readonly observer: FlowObserver = (events) => {
    this.current.getStore()?.push(...events);
  };

  /** Whether the running call asked for its events (EngineOptions.observing). */
  readonly active = (): boolean => this.current.getStore() !== undefined;

  /** Runs `call` and collects the events the engine observed while it ran. */
  async collect<T>(call: () => Promise<T>): Promise<{ readonly value: T; readonly events: FlowEvent[] }> {
    const events: FlowEvent[] = [];
    const value = await this.current.run(events, call);
    return { value, events };
  }
}

/** Whether a request's `params._meta` asks for the call's events. */
export function wantsEvents(meta: unknown): boolean {
  return (
    typeof meta === "object" &&
    meta !== null &&
    !Array.isArray(meta) &&
    (meta as Record<string, unknown>)[EVENTS_META_KEY] === true
  );
}
