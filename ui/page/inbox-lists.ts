// The inbox's first two lists as elements: the gates waiting (what each approves, how long it has
// waited, its timeout) and the decisions (when, flow, gate, outcome, who, note). Every value is
// text: gate names, intents and notes come from specs, agents and people.
import type { DecisionItem, WaitingGate } from "../api-types";
import { h } from "./dom";
import { absoluteTime, isoTime, timeoutText } from "./format";
import { dueText, OUTCOME_LABEL, waitingText } from "./inbox-format";
import { timeElement } from "./list-view";

function flowHref(flowId: string): string {
  return `#/flow/${encodeURIComponent(flowId)}`;
}

/** A `<time>` that says how long since `ms` (inbox-view.ts keeps it current). */
function waitingElement(ms: number, now: number): HTMLElement {
  return h(
    "time",
    {
      class: "age",
      datetime: isoTime(ms),
      "data-since": ms,
      title: `Since the flow's last change, ${absoluteTime(ms)}`,
    },
    waitingText(ms, now),
  );
}

/** A `<span>` that says when a timeout falls due (inbox-view.ts keeps it current). */
function dueElement(ms: number, now: number): HTMLElement {
  return h(
    "span",
    { class: ms > now ? "due" : "due overdue", "data-expires": ms, title: absoluteTime(ms) },
    dueText(ms, now),
  );
}

export function waitingList(gates: readonly WaitingGate[], now: number): HTMLElement {
  return h(
    "ol",
    { class: "waiting-list", id: "waiting-list" },
    gates.map((g) =>
      h(
        "li",
        { class: "waiting-gate", "data-flow-id": g.flow_id, "data-step-id": g.step_id },
        h(
          "div",
          { class: "waiting-head" },
          h(
            "a",
            { href: flowHref(g.flow_id), class: "gate-link" },
            h("span", { class: "mono" }, g.step_id),
            " gate of ",
            h("strong", null, g.flow_name),
          ),
          h("code", { class: "muted", title: g.flow_id }, g.flow_id.slice(0, 8)),
          g.round > 0 ? h("span", { class: "round muted" }, `round ${g.round + 1}`) : null,
          waitingElement(g.since_ms, now),
        ),
        h(
          "div",
          { class: "gate-details" },
          g.intent !== "" ? h("span", { class: "intent" }, g.intent) : null,
          g.reviews.length > 0
            ? h(
                "span",
                { class: "reviews muted" },
                "reviews ",
                g.reviews.map((r, i) => [
                  i > 0 ? ", " : null,
                  h("span", { class: "mono" }, r.step_id),
                  r.intent !== null ? ` (${r.intent})` : null,
                ]),
              )
            : null,
          g.timeout !== null && g.expires_ms !== null
            ? h(
                "span",
                { class: "timeout" },
                `timeout ${timeoutText(g.timeout)} · `,
                dueElement(g.expires_ms, now),
              )
            : null,
          g.parent_flow_id !== null
            ? h(
                "span",
                { class: "muted" },
                "sub-flow of ",
                h("a", { href: flowHref(g.parent_flow_id), class: "mono" }, g.parent_flow_id.slice(0, 8)),
              )
            : null,
        ),
      ),
    ),
  );
}

/**
 * When: the time the flow's review log gives; for a flow without one, its last change, exactly
 * when nothing was recorded after the decision, else "before" it.
 */
function decidedWhen(d: DecisionItem): HTMLElement {
  if (d.at_ms !== null) {
    const exact = timeElement(d.at_ms);
    exact.title = absoluteTime(d.at_ms);
    return exact;
  }
  const time = timeElement(d.flow_updated_ms);
  if (d.last_in_flow) {
    time.title = `${absoluteTime(d.flow_updated_ms)}: the flow's last change (nothing was recorded after this decision)`;
    return time;
  }
  return h(
    "span",
    {
      class: "before",
      title: `The store keeps no time per decision: this one came before the flow's last change (${absoluteTime(d.flow_updated_ms)})`,
    },
    "before ",
    time,
  );
}

export function decisionsTable(decisions: readonly DecisionItem[]): HTMLElement {
  return h(
    "table",
    { class: "flows decisions", id: "decisions-table" },
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        ["When", "Flow", "Gate", "Outcome", "By", "Note"].map((t) => h("th", { scope: "col" }, t)),
      ),
    ),
    h(
      "tbody",
      null,
      decisions.map((d) =>
        h(
          "tr",
          { "data-flow-id": d.flow_id, "data-step-id": d.step_id, "data-outcome": d.outcome },
          h("td", { class: "when" }, decidedWhen(d)),
          h(
            "td",
            { class: "flow-name" },
            h("a", { href: flowHref(d.flow_id) }, d.flow_name === "" ? d.flow_id : d.flow_name),
            h("div", { class: "sub muted" }, h("code", { title: d.flow_id }, d.flow_id.slice(0, 8))),
          ),
          h(
            "td",
            null,
            h("span", { class: "mono" }, d.step_id),
            d.round > 0 ? h("span", { class: "round muted" }, ` round ${d.round + 1}`) : null,
          ),
          h("td", null, h("span", { class: `badge outcome-${d.outcome}` }, OUTCOME_LABEL[d.outcome])),
          h("td", { class: "by" }, d.resolved_by),
          h(
            "td",
            { class: "decision-note" },
            d.note === "" ? h("span", { class: "muted" }, "—") : h("span", { title: d.note }, d.note),
          ),
        ),
      ),
    ),
  );
}
