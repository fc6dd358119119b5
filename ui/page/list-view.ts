// `#/`: the flows of the store as a table, flows waiting at a gate first and highlighted, with a
// status filter and a text filter (name or id). The filters survive refreshes and navigation.
import type { FlowList, FlowListItem, FlowListStatus } from "../api-types";
import { fetchFlows } from "./api";
import { fill, h } from "./dom";
import { absoluteTime, isoTime, plural, relativeTime, STATUS_LABEL, shortId } from "./format";

type StatusFilter = "all" | "in_progress" | "awaiting_gate" | "finished";

const FILTERS: readonly [StatusFilter, string][] = [
  ["all", "All"],
  ["in_progress", "In progress"],
  ["awaiting_gate", "Awaiting gate"],
  ["finished", "Finished"],
];

const MATCHES: Readonly<Record<StatusFilter, (s: FlowListStatus) => boolean>> = {
  all: () => true,
  in_progress: (s) => s === "running" || s === "awaiting_gate",
  awaiting_gate: (s) => s === "awaiting_gate",
  finished: (s) => s === "complete" || s === "killed" || s === "exhausted" || s === "budget_exhausted",
};

const filters: { status: StatusFilter; text: string } = { status: "all", text: "" };

export function statusBadge(status: FlowListStatus): HTMLElement {
  return h("span", { class: `badge status-${status}` }, STATUS_LABEL[status]);
}

export function timeElement(ms: number): HTMLElement {
  return h("time", { datetime: isoTime(ms), title: absoluteTime(ms), "data-ms": ms }, relativeTime(ms));
}

function isFilter(value: string): value is StatusFilter {
  return FILTERS.some(([v]) => v === value);
}

export class ListView {
  readonly el: HTMLElement;
  private data: FlowList | null = null;
  private readonly summary: HTMLElement;
  private readonly body: HTMLElement;

  constructor(private readonly onHome: (home: string) => void) {
    const select = h(
      "select",
      { id: "filter-status", name: "status" },
      FILTERS.map(([value, label]) => h("option", { value, selected: value === filters.status }, label)),
    );
    const text = h("input", {
      id: "filter-text",
      type: "search",
      name: "q",
      placeholder: "Name or id",
      autocomplete: "off",
      value: filters.text,
    });
    select.addEventListener("change", () => {
      if (isFilter(select.value)) filters.status = select.value;
      this.render();
    });
    text.addEventListener("input", () => {
      filters.text = text.value;
      this.render();
    });
    this.summary = h("p", { class: "summary", id: "flows-summary" }, "Loading flows…");
    this.body = h("div", { class: "table-wrap" });
    this.el = h(
      "section",
      { class: "view list-view", "aria-labelledby": "flows-heading" },
      h(
        "div",
        { class: "view-head" },
        h("h1", { id: "flows-heading" }, "Flows"),
        h(
          "form",
          { class: "filters", role: "search" },
          h("label", { for: "filter-status" }, "Status"),
          select,
          h("label", { for: "filter-text" }, "Filter"),
          text,
        ),
      ),
      this.summary,
      this.body,
    );
    this.el.querySelector("form")?.addEventListener("submit", (ev) => ev.preventDefault());
  }

  async refresh(): Promise<void> {
    const result = await fetchFlows();
    if (!result.ok) {
      fill(this.summary, h("span", { class: "error-text" }, `Could not load the flows: ${result.message}`));
      return;
    }
    this.data = result.value;
    this.onHome(result.value.home);
    const waiting = result.value.flows.filter((f) => f.status === "awaiting_gate").length;
    document.title = waiting > 0 ? `(${waiting}) Flows · stratumc` : "Flows · stratumc";
    this.render();
  }

  private render(): void {
    const data = this.data;
    if (data === null) return;
    const needle = filters.text.trim().toLowerCase();
    const shown = data.flows.filter(
      (f) =>
        MATCHES[filters.status](f.status) &&
        (needle === "" ||
          f.flow_name.toLowerCase().includes(needle) ||
          f.flow_id.toLowerCase().includes(needle)),
    );
    const waiting = data.flows.filter((f) => f.status === "awaiting_gate").length;
    const running = data.flows.filter((f) => f.status === "running").length;
    fill(
      this.summary,
      plural(data.flows.length, "flow"),
      waiting > 0 ? [" · ", h("strong", { class: "attention" }, `${waiting} awaiting a gate`)] : null,
      running > 0 ? ` · ${running} running` : null,
      shown.length !== data.flows.length ? ` · ${shown.length} shown` : null,
    );
    if (data.flows.length === 0) {
      fill(
        this.body,
        h(
          "div",
          { class: "empty" },
          h("p", null, "No flows in this store yet."),
          h(
            "p",
            { class: "muted" },
            "Flows appear here as soon as an agent starts one (through the MCP server or the CLI).",
          ),
        ),
      );
      return;
    }
    if (shown.length === 0) {
      fill(this.body, h("div", { class: "empty" }, h("p", null, "No flow matches the filters.")));
      return;
    }
    fill(
      this.body,
      h(
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
        h("tbody", null, shown.map(row)),
      ),
    );
  }
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
