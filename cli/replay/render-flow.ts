// What `replay --flow/--all --spec` prints. pretty: one block per flow — its id, name and stored
// status, then `no divergence`, `diverges at FILE:LINE:COLUMN` with the kind, the message and what
// was recorded against what the edited spec does now, or `cannot judge` with the reason — and a
// summary line. json: `{"spec", "flows": [...], "summary": {"flows", "diverged", "unjudged"}}`,
// each flow `{flow_id, flow_name, status, entries, replayed, reconstructed, divergence, unjudged}`,
// a divergence `{kind, step, message, recorded, now, violations, reconstructed, line, column,
// end_line, end_column, sub_flow}` (sub_flow: `{flow, parent_flow, parent_step}` of the child it
// happened in, or null).
import { LineMap } from "../../checker/index";
import type { Divergence, FlowReplayReport } from "../../fuzzer/index";
import type { Style } from "../format/style";

interface Located {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

function locate(lines: LineMap, d: Divergence): Located {
  return lines.location(d.range.start, d.range.end);
}

export function formatFlowReplayJson(
  file: string,
  specText: string,
  reports: readonly FlowReplayReport[],
): string {
  const lines = new LineMap(specText);
  const flows = reports.map((r) => ({
    flow_id: r.flowId,
    flow_name: r.flowName,
    status: r.status,
    entries: r.entries,
    replayed: r.replayed,
    reconstructed: r.reconstructed,
    divergence: r.divergence === null ? null : divergenceJson(lines, r.divergence),
    unjudged: r.unjudged,
  }));
  return `${JSON.stringify({ spec: file, flows, summary: summaryOf(reports) }, null, 2)}\n`;
}

function divergenceJson(lines: LineMap, d: Divergence) {
  const at = locate(lines, d);
  return {
    kind: d.kind,
    step: d.step,
    message: d.message,
    recorded: d.recorded,
    now: d.now,
    violations: d.violations,
    reconstructed: d.reconstructed,
    line: at.line,
    column: at.column,
    end_line: at.endLine,
    end_column: at.endColumn,
    sub_flow:
      d.child === null
        ? null
        : { flow: d.child.flow, parent_flow: d.child.parentFlow, parent_step: d.child.parentStep },
  };
}

function summaryOf(reports: readonly FlowReplayReport[]) {
  return {
    flows: reports.length,
    diverged: reports.filter((r) => r.divergence !== null).length,
    unjudged: reports.filter((r) => r.divergence === null && r.unjudged !== null).length,
  };
}

export function formatFlowReplayPretty(
  file: string,
  specText: string,
  reports: readonly FlowReplayReport[],
  style: Style,
): string {
  const lines = new LineMap(specText);
  let out = "";
  for (const r of reports) {
    out += `${style.bold(`flow ${r.flowId}`)} (${r.flowName}, ${r.status}): `;
    if (r.divergence !== null) {
      const d = r.divergence;
      const at = locate(lines, d);
      out += `${style.error("diverges")} at ${file}:${at.line}:${at.column}\n`;
      out += `  ${style.error(d.kind)}: ${d.message}\n`;
      out += `  ${style.dim("recorded:")} ${d.recorded}\n`;
      out += `  ${style.dim("now:     ")} ${d.now}\n`;
      for (const v of d.violations) out += `  ${style.dim("violation:")} ${v}\n`;
      if (d.reconstructed) {
        out += `  ${style.warning("doubtful:")} the answer replayed here is a result the store did not keep (reconstructed)\n`;
      }
    } else if (r.unjudged !== null) {
      out += `${style.warning("cannot judge")}: ${r.unjudged}\n`;
    } else {
      out += `${style.ok("no divergence")} (${r.replayed} recorded answer${r.replayed === 1 ? "" : "s"} replayed)\n`;
    }
    if (r.reconstructed > 0) {
      out += `  ${style.dim("note:")} ${r.reconstructed} recorded result(s) were not kept by the store and were reconstructed\n`;
    }
  }
  const s = summaryOf(reports);
  out +=
    s.flows === 0
      ? `No stored flow of ${file}'s flows to replay.\n`
      : `${s.flows} flow(s) replayed: ${s.diverged} diverge(s), ${s.unjudged} could not be judged.\n`;
  return out;
}
