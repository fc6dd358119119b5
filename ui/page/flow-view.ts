// `#/flow/<id>`: one flow: its header, the gate panel when it waits at a gate, the graph, the
// steps with their outputs, the audit trail and the spec source. A refresh updates the sections in
// place: the gate panel of the same gate is kept (with the note being typed), the spec is redrawn
// only when it changes. A long flow's steps and audit show one window at a time (pager.ts), its
// graph is left out past 100 steps and its spec shows the lines around the current step
// (spec-lines.ts draws only those in the box).
import type { AuditRecord, FlowPage, StepView } from "../api-types";
import { fetchFlow, PAGE_SIZE } from "./api";
import { fill, h } from "./dom";
import { duration, plural, prettyJson, STATE_LABEL, shortId } from "./format";
import { GatePanel } from "./gate-panel";
import { gateReviewView } from "./gate-review-view";
import { renderGraph } from "./graph-svg";
import { statusBadge, timeElement } from "./list-view";
import { Pager } from "./pager";
import { SpecLines } from "./spec-lines";

const STATES = ["done", "current", "awaiting_gate", "failed", "skipped", "pending", "killed"] as const;

function flowHref(id: string): string {
  return `#/flow/${encodeURIComponent(id)}`;
}

function section(id: string, title: string, ...body: HTMLElement[]): HTMLElement {
  return h("section", { class: "card", "aria-labelledby": id }, h("h2", { id }, title), ...body);
}

export class FlowView {
  readonly el: HTMLElement;
  private disposed = false;
  private gate: GatePanel | null = null;
  private specKey = "";
  private readonly crumbs: HTMLElement;
  private readonly head: HTMLElement;
  private readonly gateSlot: HTMLElement;
  private readonly reviewSlot: HTMLElement;
  private reviewKey = "";
  private readonly content: HTMLElement;
  private readonly graphWrap: HTMLElement;
  private readonly steps: HTMLOListElement;
  private readonly audit: HTMLOListElement;
  private readonly spec: HTMLPreElement;
  private readonly specLines: SpecLines;
  private readonly inputs: HTMLPreElement;
  private readonly auditCount: HTMLElement;
  private readonly specNote: HTMLElement;
  private readonly stepsPager: Pager;
  private readonly auditPager: Pager;
  /** The windows the person moved to; null: the server's choice (the current step, the latest records). */
  private stepsOffset: number | null = null;
  private auditOffset: number | null = null;
  /** Whether the audit, spec and inputs were drawn once; the page waiting to draw them, if any. */
  private restShown = false;
  private restPage: FlowPage | null = null;
  /** Whether the last answer was an unchecked first page (the next is asked for at once, once). */
  private unchecked = false;

  constructor(private readonly flowId: string) {
    this.crumbs = h(
      "nav",
      { class: "crumbs", "aria-label": "Breadcrumb" },
      h("a", { href: "#/" }, "← All flows"),
    );
    this.head = h(
      "div",
      { class: "flow-head" },
      h(
        "h1",
        { id: "flow-heading", tabindex: -1 },
        h("span", { class: "muted" }, `Flow ${shortId(flowId)}…`),
      ),
    );
    this.gateSlot = h("div", { class: "gate-slot" });
    this.reviewSlot = h("div", { class: "review-slot" });
    this.graphWrap = h("div", { class: "graph-wrap" });
    this.steps = h("ol", { id: "steps", class: "steps" });
    this.audit = h("ol", { id: "audit", class: "audit" });
    this.auditCount = h("span", { class: "count muted" });
    this.spec = h("pre", { id: "spec", class: "spec", tabindex: 0, "aria-label": "Spec source" });
    this.specLines = new SpecLines(this.spec);
    this.inputs = h("pre", { class: "value" });
    this.specNote = h("p", { class: "muted spec-note", hidden: true });
    this.stepsPager = new Pager("steps", (offset) => {
      this.stepsOffset = offset;
      void this.refresh();
    });
    this.auditPager = new Pager("records", (offset) => {
      this.auditOffset = offset;
      void this.refresh();
    });
    const legend = h(
      "ul",
      { class: "legend", "aria-label": "Step states" },
      STATES.map((st) =>
        h("li", null, h("span", { class: `swatch state-${st}`, "aria-hidden": "true" }), STATE_LABEL[st]),
      ),
    );
    this.content = h(
      "div",
      { class: "flow-content" },
      h(
        "div",
        { class: "grid two" },
        section("graph-heading", "Graph", this.graphWrap, legend),
        section("steps-heading", "Steps", this.steps, this.stepsPager.el),
      ),
      h(
        "div",
        { class: "grid two" },
        h(
          "section",
          { class: "card", "aria-labelledby": "audit-heading" },
          h("h2", { id: "audit-heading" }, "Audit trail ", this.auditCount),
          this.audit,
          this.auditPager.el,
        ),
        section("spec-heading", "Spec", this.specNote, this.spec),
      ),
      section("inputs-heading", "Inputs", this.inputs),
    );
    this.el = h(
      "section",
      { class: "view flow-view" },
      this.crumbs,
      this.head,
      this.gateSlot,
      this.reviewSlot,
      this.content,
    );
  }

  dispose(): void {
    this.disposed = true;
  }

  async refresh(): Promise<void> {
    const result = await fetchFlow(this.flowId, this.stepsOffset, this.auditOffset);
    if (this.disposed) return;
    if (!result.ok) {
      this.showError(result.status, result.code, result.message);
      return;
    }
    this.render(result.value);
    // A long flow's first answer from a server that had not read it: the checked page follows
    // (the server checks the spec right after answering). Asked once, so a server that keeps
    // answering unchecked (its check failing) is not asked in a loop.
    const again = result.value.unchecked === true && !this.unchecked;
    this.unchecked = result.value.unchecked === true;
    if (again) void this.refresh();
  }

  private showError(status: number, code: string, message: string): void {
    this.gate = null;
    this.gateSlot.replaceChildren();
    this.reviewKey = "";
    this.reviewSlot.replaceChildren();
    const title =
      status === 404 || code === "not_found"
        ? "No such flow"
        : code === "flow_corrupt" || status === 422
          ? "This flow cannot be read"
          : "Could not load the flow";
    fill(
      this.head,
      h("h1", { id: "flow-heading", tabindex: -1 }, title),
      h("p", { class: "meta" }, h("code", null, this.flowId)),
      h("p", { class: "error-text" }, message),
    );
    this.content.hidden = true;
    document.title = `${title} · stratumc`;
  }

  private render(page: FlowPage): void {
    const f = page.flow;
    this.content.hidden = false;
    document.title = `${f.status === "awaiting_gate" ? "⏸ " : ""}${f.flow_name || shortId(f.flow_id)} · stratumc`;
    fill(
      this.crumbs,
      h("a", { href: "#/" }, "← All flows"),
      f.parent_flow_id !== null
        ? [
            h("span", { class: "sep", "aria-hidden": "true" }, " / "),
            "sub-flow of ",
            h("a", { href: flowHref(f.parent_flow_id), class: "mono" }, shortId(f.parent_flow_id)),
          ]
        : null,
    );
    const focused = document.activeElement?.id === "flow-heading";
    const heading = h(
      "h1",
      { id: "flow-heading", tabindex: -1 },
      f.flow_name || "(unnamed flow)",
      " ",
      statusBadge(f.status),
    );
    fill(
      this.head,
      heading,
      h(
        "dl",
        { class: "meta" },
        h("dt", null, "ID"),
        h("dd", null, h("code", null, f.flow_id)),
        h("dt", null, "Current step"),
        h("dd", { class: "mono" }, f.current_step_id ?? "—"),
        h("dt", null, "Progress"),
        h("dd", null, `${f.completed_steps}/${f.step_count} steps`),
        h("dt", null, "Round"),
        h("dd", null, String(f.round + 1)),
        h("dt", null, "Updated"),
        h("dd", null, timeElement(f.updated_ms)),
      ),
      page.unchecked === true
        ? h("p", { class: "muted unchecked-note", role: "status" }, "Checking the flow's spec…")
        : null,
    );
    if (focused) heading.focus();
    this.renderGate(page);
    this.renderReview(page);
    fill(
      this.graphWrap,
      page.graph === null
        ? h(
            "p",
            { class: "muted graph-omitted" },
            `${page.steps_total.toLocaleString("en")} steps: too many to draw. The steps are listed beside.`,
          )
        : renderGraph(page.graph, (id) => this.select(id)),
    );
    fill(
      this.steps,
      page.steps.map((st) => stepItem(st)),
    );
    this.stepsPager.update(page.steps_offset, page.steps.length, page.steps_total, PAGE_SIZE);
    this.renderLater(page);
  }

  /**
   * The audit trail, the spec and the inputs, below the first screen: on the view's first draw
   * they follow in a task after the next frame, so the gate and the steps show without waiting for
   * them (a long flow's 100 records are about half of the page's elements); later refreshes draw
   * them at once.
   */
  private renderLater(page: FlowPage): void {
    if (this.restShown) {
      this.renderRest(page);
      return;
    }
    const scheduled = this.restPage !== null;
    this.restPage = page;
    if (scheduled) return;
    requestAnimationFrame(() =>
      setTimeout(() => {
        const latest = this.restPage;
        this.restPage = null;
        this.restShown = true;
        if (latest !== null && !this.disposed) this.renderRest(latest);
      }, 0),
    );
  }

  private renderRest(page: FlowPage): void {
    this.auditPager.update(page.audit_offset, page.audit.length, page.audit_total, PAGE_SIZE);
    fill(
      this.audit,
      page.audit.length === 0
        ? h("li", { class: "muted empty-item" }, "Nothing recorded yet.")
        : page.audit.map(auditItem),
    );
    this.auditCount.textContent = `(${page.audit_total})`;
    this.renderSpec(page.spec);
    this.inputs.textContent = prettyJson(page.inputs);
  }

  private renderGate(page: FlowPage): void {
    const gate = page.gate;
    if (gate === null) {
      this.gate = null;
      this.gateSlot.replaceChildren();
      return;
    }
    if (this.gate !== null && this.gate.key() === GatePanel.key(this.flowId, gate)) {
      this.gate.update(gate, page.revision, page.may_resolve !== false);
      return;
    }
    this.gate = new GatePanel(
      this.flowId,
      gate,
      page.revision,
      () => void this.refresh(),
      page.may_resolve !== false,
    );
    this.gateSlot.replaceChildren(this.gate.el);
  }

  private renderReview(page: FlowPage): void {
    const key = page.review === null ? "" : JSON.stringify(page.review);
    if (key === this.reviewKey) return;
    this.reviewKey = key;
    fill(
      this.reviewSlot,
      page.review === null ? null : gateReviewView(page.review, (line) => this.showSpecLine(line)),
    );
  }

  /** Brings the spec card into view with `line` (1-based, whole spec) in its box, flashed. */
  private showSpecLine(line: number): void {
    this.spec.scrollIntoView({ block: "start", behavior: "smooth" });
    const el = this.specLines.reveal(line);
    if (el === null) return;
    this.spec.focus({ preventScroll: true });
    el.classList.remove("flash");
    void el.offsetWidth;
    el.classList.add("flash");
  }

  private renderSpec(spec: FlowPage["spec"]): void {
    const { source, first_line: from, line_count: total, current_step_line: current } = spec;
    const key = `${current}\n${from}\n${source}`;
    if (key === this.specKey) return;
    this.specKey = key;
    // A long spec comes as the lines around the current step's (the server's window).
    const shown = source.replace(/\n$/, "").split("\n");
    this.specNote.hidden = shown.length >= total;
    this.specNote.textContent = `Lines ${from.toLocaleString("en")}–${(from + shown.length - 1).toLocaleString("en")} of ${total.toLocaleString("en")}, around the current step.`;
    this.specLines.show(shown, from, current);
  }

  private select(stepId: string): void {
    const item = this.steps.querySelector<HTMLElement>(`li[data-step-id="${CSS.escape(stepId)}"]`);
    if (item === null) return;
    item.scrollIntoView({ block: "center", behavior: "smooth" });
    item.focus({ preventScroll: true });
    item.classList.remove("flash");
    void item.offsetWidth;
    item.classList.add("flash");
  }
}

function stepItem(st: StepView): HTMLLIElement {
  const what = st.kind === "inline" ? "inline" : `${st.kind}${st.target === null ? "" : ` · ${st.target}`}`;
  return h(
    "li",
    { "data-step-id": st.id, "data-state": st.state, tabindex: -1, class: "step" },
    h(
      "div",
      { class: "step-head" },
      h("span", { class: `state-badge state-${st.state}` }, STATE_LABEL[st.state]),
      h("span", { class: "step-id mono" }, st.id),
      h("span", { class: "muted kind" }, what),
      // `retries` is the most attempts the step may take (docs/reference/language.md); a gate has none.
      st.kind === "gate"
        ? null
        : h("span", { class: "attempts muted" }, `${st.attempts} of ${plural(st.retries, "attempt")}`),
    ),
    st.child_flow_id !== null
      ? h(
          "p",
          { class: "child" },
          "Sub-flow: ",
          h("a", { href: flowHref(st.child_flow_id), class: "mono" }, shortId(st.child_flow_id)),
        )
      : null,
    st.output !== null && st.output !== undefined
      ? h(
          "div",
          { class: "output" },
          h("div", { class: "output-label muted" }, "Output"),
          h("pre", { class: "value" }, prettyJson(st.output)),
        )
      : null,
  );
}

const KNOWN_FIELDS: Readonly<Record<AuditRecord["type"], readonly string[]>> = {
  step: ["function_name", "attempts", "duration_ms", "step_mode", "child_flow_id", "agent"],
  gate: ["outcome", "rationale", "resolved_by", "resolved_by_name", "duration_ms"],
  skip: ["skip_reason"],
  policy: ["effective_policy", "resolved_outcome", "rationale"],
};

function field(record: AuditRecord, key: string): string | null {
  const v = record[key];
  if (v === null || v === undefined || v === "") return null;
  return typeof v === "string" ? v : prettyJson(v);
}

function auditItem(record: AuditRecord): HTMLLIElement {
  const facts: (string | HTMLElement)[] = [];
  let note: string | null = null;
  const num = (key: string): number | null =>
    typeof record[key] === "number" ? (record[key] as number) : null;
  switch (record.type) {
    case "step": {
      const fn = field(record, "function_name");
      if (fn !== null) facts.push(h("span", { class: "mono" }, fn));
      const mode = field(record, "step_mode");
      if (mode !== null) facts.push(mode);
      const attempts = num("attempts");
      if (attempts !== null) facts.push(plural(attempts, "attempt"));
      const agent = field(record, "agent");
      if (agent !== null) facts.push(`by ${agent}`);
      const child = field(record, "child_flow_id");
      if (child !== null)
        facts.push(h("a", { href: flowHref(child), class: "mono" }, `sub-flow ${shortId(child)}`));
      break;
    }
    case "gate": {
      const outcome = field(record, "outcome");
      if (outcome !== null) facts.push(h("span", { class: `outcome outcome-${outcome}` }, outcome));
      const by = field(record, "resolved_by");
      // A named reviewer (`stratumc ui --users`) is shown by name; `resolved_by` stays "human".
      const name = field(record, "resolved_by_name");
      if (name !== null)
        facts.push(h("span", { class: "reviewer", title: `resolved_by: ${by ?? "human"}` }, `by ${name}`));
      else if (by !== null) facts.push(`by ${by}`);
      note = field(record, "rationale");
      break;
    }
    case "skip":
      note = field(record, "skip_reason");
      break;
    case "policy": {
      const policy = field(record, "effective_policy");
      if (policy !== null) facts.push(`policy ${policy}`);
      const outcome = field(record, "resolved_outcome");
      if (outcome !== null) facts.push(h("span", { class: `outcome outcome-${outcome}` }, outcome));
      note = field(record, "rationale");
      break;
    }
  }
  const ms = num("duration_ms");
  if (ms !== null) facts.push(duration(ms));
  const known = new Set(["type", "step_id", "round", ...(KNOWN_FIELDS[record.type] ?? [])]);
  const extra = Object.keys(record).filter(
    (k) => !known.has(k) && record[k] !== null && record[k] !== undefined,
  );
  return h(
    "li",
    { "data-type": record.type, "data-step-id": record.step_id, class: `audit-item audit-${record.type}` },
    h(
      "div",
      { class: "audit-head" },
      h("span", { class: `audit-type type-${record.type}` }, record.type),
      h("span", { class: "mono step-ref" }, record.step_id),
      facts.map((f) => [
        h("span", { class: "dot", "aria-hidden": "true" }, "·"),
        h("span", { class: "fact" }, f),
      ]),
      h("span", { class: "round muted" }, `round ${record.round + 1}`),
    ),
    note !== null ? h("p", { class: "note" }, note) : null,
    extra.length > 0
      ? h(
          "dl",
          { class: "extra" },
          extra.map((k) => [
            h("dt", null, k),
            h("dd", null, h("pre", { class: "value" }, prettyJson(record[k]))),
          ]),
        )
      : null,
  );
}
