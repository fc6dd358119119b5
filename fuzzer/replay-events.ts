// Events a replay's MCP server sent as JSON (in a call's `_meta`), read back as typed events for
// the fuzzer's judgement. Here, not in cli/, so that the CLI reaches it through the lazily loaded
// fuzzer entry point.
import { eventFromJson, type FlowEvent } from "../interpreter/index";

export function eventsFromJson(list: readonly Readonly<Record<string, unknown>>[]): FlowEvent[] {
  return list.map(eventFromJson);
}
