// The flows of the store as a table (the home's third list, inbox-view.ts), flows waiting at a gate
// highlighted; and the status badge and live time the flow page uses too.
import type { FlowListItem, FlowListStatus } from "../api-types";
import { h } from "./dom";
import { absoluteTime, isoTime, relativeTime, STATUS_LABEL, shortId } from "./format";

export function statusBadge(status: FlowListStatus): HTMLElement {
  return h("span", { class: `badge status-${status}` }, STATUS_LABEL[status]);
}

export function timeElement(ms: number): HTMLElement {
  return h("time", { datetime: isoTime(ms), title: absoluteTime(ms), "data-ms": ms }, relativeTime(ms));
}

/** The flows as a table: name (and parent, or what is wrong), id, status, current step, progress, last update. */
export function flowsTable(flows: readonly FlowListItem[]): HTMLElement {
  return h(
    "table",
    { class: "flows", id: "flows" },
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        ["Flow", "ID", "Status", "Current step", "Progress", "Updated"].map((t) =>
          h("th", { scope: "col" }, t),
        ),
      ),
    ),
    h("tbody", null, flows.map(row)),
  );
}

function row(f: FlowListItem): HTMLTableRowElement {
  const href = `#/flow/${encodeURIComponent(f.flow_id)}`;
  const name = f.flow_name === "" ? "(unreadable flow)" : f.flow_name;
  const current =
    f.status === "awaiting_gate" && f.gate !== null
      ? h(
          "span",
          { class: "gate-ref" },
          h("span", { class: "mono" }, f.gate.step_id),
          h("span", { class: "muted" }, " gate"),
        )
      : f.current_step_id !== null
        ? h("span", { class: "mono" }, f.current_step_id)
        : h("span", { class: "muted" }, "—");
  return h(
    "tr",
    {
      "data-flow-id": f.flow_id,
      "data-status": f.status,
      class: f.status === "awaiting_gate" ? "pending-gate" : null,
    },
    h(
      "td",
      { class: "flow-name" },
      h("a", { href }, name),
      f.parent_flow_id !== null
        ? h(
            "div",
            { class: "sub muted" },
            "sub-flow of ",
            h(
              "a",
              { href: `#/flow/${encodeURIComponent(f.parent_flow_id)}`, class: "mono" },
              shortId(f.parent_flow_id),
            ),
          )
        : null,
      f.problem !== null ? h("div", { class: "sub error-text" }, f.problem) : null,
    ),
    h("td", null, h("code", { title: f.flow_id }, shortId(f.flow_id))),
    h(
      "td",
      null,
      statusBadge(f.status),
      f.round > 0 ? h("span", { class: "round muted" }, ` round ${f.round + 1}`) : null,
    ),
    h("td", null, current),
    h(
      "td",
      { class: "progress-cell" },
      h("progress", { max: Math.max(1, f.step_count), value: f.completed_steps, "aria-label": "progress" }),
      h("span", { class: "progress-text" }, `${f.completed_steps}/${f.step_count}`),
    ),
    h("td", null, timeElement(f.updated_ms)),
  );
}
