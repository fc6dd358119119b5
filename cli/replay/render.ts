// What `replay` prints. pretty: each call (`→ tool {arguments}`, the spec text of stratum_plan
// abbreviated) and its response as indented JSON, then `reproduced CODE: message` or
// `not reproduced` (or `cannot judge` for a server that sends no typed events). json:
// `{"reproduced", "judged", "code", "steps": [{"call", "response"}]}`.
import type { ReplayResult, WireCall } from "../../fuzzer/index";
import { compactJson } from "../format/compact-json";
import type { Style } from "../format/style";
import type { CounterexampleFile } from "../fuzz/counterexample-file";

export function formatReplayJson(saved: CounterexampleFile, result: ReplayResult): string {
  const out = { reproduced: result.reproduced, judged: result.judged, code: saved.code, steps: result.steps };
  return `${JSON.stringify(out, null, 2)}\n`;
}

export function formatReplayPretty(saved: CounterexampleFile, result: ReplayResult, style: Style): string {
  let out = "";
  for (const { call, response } of result.steps) {
    out += `${style.bold(`→ ${call.tool}`)} ${compactJson(shownArguments(call))}\n`;
    out += `${JSON.stringify(response, null, 2).replace(/^/gm, "  ")}\n`;
  }
  return `${out}${verdictLine(saved, result, style)}\n`;
}

/** The spec a stratum_plan call carries is the whole file: shown as its size. */
function shownArguments(call: WireCall): Record<string, unknown> {
  const spec = call.arguments.spec;
  if (call.tool !== "stratum_plan" || typeof spec !== "string") return call.arguments;
  const lines = spec.split("\n").length - (spec.endsWith("\n") ? 1 : 0);
  return { ...call.arguments, spec: `<the spec, ${lines} line${lines === 1 ? "" : "s"}>` };
}

function verdictLine(saved: CounterexampleFile, result: ReplayResult, style: Style): string {
  if (!result.judged) {
    return style.warning(
      'cannot judge: the server sends no typed events (its tools/call results carry no _meta "stratumc/events"), so whether the finding shows again is unknown',
    );
  }
  if (!result.reproduced) return style.warning("not reproduced");
  return `${style.error("reproduced")} ${saved.code}: ${result.shown?.message ?? saved.message}`;
}
