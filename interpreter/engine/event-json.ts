// Events as JSON data (docs/reference/runtime.md §24.3): every field is plain data already except
// `step_finished`'s `output`, the stored PyValue. The MCP server sends `eventToJson` of each event
// (an integer beyond JSON's exact range becomes the nearest number); a client that hands the
// events it received to the fuzzer reads them back with `eventFromJson`.
import { fromJsonValue } from "../../stdlib/values/json";
import { wireToPlain } from "../wire/encode";
import type { FlowEvent } from "./observer";

/** The event as JSON-ready data (the object itself when it has no output). */
export function eventToJson(event: FlowEvent): unknown {
  if (event.type !== "step_finished" || event.output === undefined) return event;
  const output: unknown = wireToPlain(event.output, { bigints: "number" });
  return { ...event, output };
}

/**
 * An event received as JSON, trusted to be one the engine sent (the fuzzer judges by its typed
 * fields); `step_finished`'s `output` becomes a value again.
 */
export function eventFromJson(data: Readonly<Record<string, unknown>>): FlowEvent {
  if (data.type !== "step_finished" || !("output" in data)) return data as unknown as FlowEvent;
  return { ...data, output: fromJsonValue(data.output) } as unknown as FlowEvent;
}
