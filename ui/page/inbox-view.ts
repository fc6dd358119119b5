// `#/`, the page's home (docs/guides/ui-inbox.md): the gates waiting for a person (oldest first),
// the decisions recorded in every flow (newest first) and the flows, each a window of 50 with
// "Earlier" / "Later". The filters (status, flow name, outcome, search) live in the address
// (inbox-route.ts): changing one adds a history entry (typing a search adds one, not one per key),
// so a reload keeps them, a link shares them and the back button restores the ones before.
import type { InboxView as InboxData } from "../api-types";
import { fetchInbox } from "./api";
import { fill, h } from "./dom";
import { dueText, waitingText } from "./inbox-format";
import { decisionsTable, waitingList } from "./inbox-lists";
import {
  filtersQuery,
  type InboxFilters,
  inboxHash,
  MAX_SEARCH,
  OUTCOME_FILTERS,
  STATUS_FILTERS,
} from "./inbox-route";
import { flowsTable } from "./list-view";
import { Pager } from "./pager";

/** Items a list shows at a time (the server's default window). */
const PAGE = 50;
const TICK_MS = 15_000;

type Part = "waiting" | "decisions" | "flows";

export class InboxView {
  readonly el: HTMLElement;
  private filters: InboxFilters;
  private readonly offsets: Record<Part, number> = { waiting: 0, decisions: 0, flows: 0 };
  private readonly summary: HTMLElement;
  private readonly status: HTMLSelectElement;
  private readonly flow: HTMLSelectElement;
  private readonly outcome: HTMLSelectElement;
  private readonly search: HTMLInputElement;
  private readonly bodies = {} as Record<Part, HTMLElement>;
  private readonly counts = {} as Record<Part, HTMLElement>;
  private readonly pagers = {} as Record<Part, Pager>;
  private readonly ticker: number;
  /** Answers to older requests are dropped: filters change faster than the server answers. */
  private asked = 0;
  /** A search being typed has its history entry already; its next keys replace it. */
  private typing = false;

  constructor(filters: InboxFilters) {
    this.filters = filters;
    this.status = h(
      "select",
      { id: "filter-status", name: "status" },
      STATUS_FILTERS.map(([value, label]) =>
        h("option", { value, selected: value === filters.status }, label),
      ),
    );
    this.flow = h("select", { id: "filter-flow", name: "flow" });
    this.outcome = h(
      "select",
      { id: "filter-outcome", name: "outcome" },
      OUTCOME_FILTERS.map(([value, label]) =>
        h("option", { value, selected: value === filters.outcome }, label),
      ),
    );
    this.search = h("input", {
      id: "filter-text",
      type: "search",
      name: "q",
      placeholder: "Flow, id, gate or note",
      autocomplete: "off",
      maxlength: MAX_SEARCH,
      value: filters.q,
    });
    this.fillFlowNames([]);
    for (const select of [this.status, this.flow, this.outcome])
      select.addEventListener("change", () => this.changeFilters(false));
    this.search.addEventListener("input", () => this.changeFilters(this.typing));
    this.search.addEventListener("change", () => {
      this.typing = false;
    });

    this.summary = h("p", { class: "summary", id: "inbox-summary" }, "Loading…");
    const part = (name: Part, title: string, noun: string) => {
      this.counts[name] = h("span", { class: "count muted" });
      this.bodies[name] = h("div", { class: `inbox-body ${name}-body` });
      this.pagers[name] = new Pager(noun, (offset) => {
        this.offsets[name] = offset;
        void this.refresh();
      });
      return h(
        "section",
        { class: `inbox-part ${name}-part`, id: `${name}-part`, "aria-labelledby": `${name}-heading` },
        h("h2", { id: `${name}-heading` }, title, " ", this.counts[name]),
        this.bodies[name],
        this.pagers[name].el,
      );
    };
    this.el = h(
      "section",
      { class: "view inbox-view", "aria-labelledby": "inbox-heading" },
      h(
        "div",
        { class: "view-head" },
        h("h1", { id: "inbox-heading" }, "Inbox"),
        h(
          "form",
          { class: "filters", role: "search", id: "inbox-filters" },
          h("label", { for: "filter-status" }, "Status"),
          this.status,
          h("label", { for: "filter-flow" }, "Flow"),
          this.flow,
          h("label", { for: "filter-outcome" }, "Outcome"),
          this.outcome,
          h("label", { for: "filter-text" }, "Search"),
          this.search,
        ),
      ),
      this.summary,
      part("waiting", "Waiting for a decision", "gates"),
      part("decisions", "Decisions", "decisions"),
      part("flows", "Flows", "flows"),
    );
    this.el.querySelector("form")?.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.typing = false;
    });
    this.ticker = window.setInterval(() => this.tick(), TICK_MS);
  }

  dispose(): void {
    window.clearInterval(this.ticker);
  }

  async refresh(): Promise<void> {
    const ask = ++this.asked;
    const query = new URLSearchParams(filtersQuery(this.filters));
    if (this.offsets.waiting > 0) query.set("waiting_offset", String(this.offsets.waiting));
    if (this.offsets.decisions > 0) query.set("decisions_offset", String(this.offsets.decisions));
    if (this.offsets.flows > 0) query.set("flows_offset", String(this.offsets.flows));
    const result = await fetchInbox(query.toString());
    if (ask !== this.asked) return;
    if (!result.ok) {
      fill(this.summary, h("span", { class: "error-text" }, `Could not load the inbox: ${result.message}`));
      return;
    }
    this.render(result.value);
  }

  /** Reads the form into the filters and the address: a new history entry, or (typing on) the same one. */
  private changeFilters(replace: boolean): void {
    const status = STATUS_FILTERS.find(([v]) => v === this.status.value)?.[0] ?? "all";
    const outcome = OUTCOME_FILTERS.find(([v]) => v === this.outcome.value)?.[0] ?? "";
    this.filters = { status, flow: this.flow.value, q: this.search.value.slice(0, MAX_SEARCH), outcome };
    const hash = inboxHash(this.filters);
    if (replace) history.replaceState(null, "", hash);
    else history.pushState(null, "", hash);
    this.typing = document.activeElement === this.search;
    this.offsets.waiting = 0;
    this.offsets.decisions = 0;
    this.offsets.flows = 0;
    void this.refresh();
  }

  /** The flow select's choices: every name in the store, and the filter's own when it is not among them. */
  private fillFlowNames(names: readonly string[]): void {
    const wanted = this.filters.flow;
    const all = wanted === "" || names.includes(wanted) ? names : [wanted, ...names];
    const current = [...this.flow.options].map((o) => o.value).slice(1);
    if (current.length === all.length && current.every((n, i) => n === all[i])) return;
    fill(
      this.flow,
      h("option", { value: "", selected: wanted === "" }, "All flows"),
      all.map((name) => h("option", { value: name, selected: name === wanted }, name)),
    );
  }

  private render(data: InboxData): void {
    const now = Date.now();
    const filtered = filtersQuery(this.filters) !== "";
    this.fillFlowNames(data.flow_names);
    document.title = data.waiting_count > 0 ? `(${data.waiting_count}) Inbox · stratumc` : "Inbox · stratumc";
    fill(
      this.summary,
      `${data.flow_count.toLocaleString("en")} ${data.flow_count === 1 ? "flow" : "flows"}`,
      data.waiting_count > 0
        ? [
            " · ",
            h("strong", { class: "attention" }, `${data.waiting_count.toLocaleString("en")} awaiting a gate`),
          ]
        : null,
      filtered ? [" · ", h("a", { href: "#/", id: "clear-filters" }, "Clear filters")] : null,
    );
    const none = (all: string, matching: string, hint?: string) =>
      h(
        "div",
        { class: "empty" },
        h("p", null, filtered ? matching : all),
        !filtered && hint !== undefined ? h("p", { class: "muted" }, hint) : null,
      );

    this.counts.waiting.textContent = `(${data.waiting.total.toLocaleString("en")})`;
    fill(
      this.bodies.waiting,
      data.waiting.items.length > 0
        ? waitingList(data.waiting.items, now)
        : none("Nothing waits for a decision.", "No gate waiting matches the filters."),
    );
    this.counts.decisions.textContent = `(${data.decisions.total.toLocaleString("en")})`;
    fill(
      this.bodies.decisions,
      data.decisions.items.length > 0
        ? h("div", { class: "table-wrap" }, decisionsTable(data.decisions.items))
        : none(
            "No gate has been decided yet.",
            "No decision matches the filters.",
            "Approvals, revisions and kills appear here, newest first.",
          ),
    );
    this.counts.flows.textContent = `(${data.flows.total.toLocaleString("en")})`;
    fill(
      this.bodies.flows,
      data.flows.items.length > 0
        ? h("div", { class: "table-wrap" }, flowsTable(data.flows.items))
        : none(
            "No flows in this store yet.",
            "No flow matches the filters.",
            "Flows appear here as soon as an agent starts one (through the MCP server or the CLI).",
          ),
    );
    for (const name of ["waiting", "decisions", "flows"] as const) {
      const part = data[name];
      this.pagers[name].update(part.offset, part.items.length, part.total, PAGE);
    }
    // Filters are restored from the address; a reload must not leave the form saying otherwise.
    if (document.activeElement !== this.search && this.search.value !== this.filters.q)
      this.search.value = this.filters.q;
  }

  /** Keeps the ages and due times current between changes. */
  private tick(): void {
    const now = Date.now();
    for (const el of this.el.querySelectorAll<HTMLElement>("time[data-since]"))
      el.textContent = waitingText(Number(el.dataset.since), now);
    for (const el of this.el.querySelectorAll<HTMLElement>("span[data-expires]")) {
      const ms = Number(el.dataset.expires);
      el.textContent = dueText(ms, now);
      el.classList.toggle("overdue", ms <= now);
    }
  }
}
